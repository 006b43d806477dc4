import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Code, message } from '@wildtrack/contract';
import { sendEnvelope } from './envelope.js';
import { isApiPath } from './error-handler.js';

/** Folders of the built client (apps/web/dist) that hold only files. */
const FILE_ONLY_PATHS = /^\/(assets|cesium)\//;

function notFound(request: FastifyRequest, reply: FastifyReply, url: string) {
  return sendEnvelope(reply, 404, Code.UnknownPath, message(request.lang, 'error.notFound', { path: `GET ${url}` }));
}

/**
 * Serves the built console (apps/web/dist) when it is there: its files, and index.html for every client
 * route. Hashed bundles are cached for good, everything else is checked each time.
 */
export async function serveWebClient(app: FastifyInstance, webDist: string): Promise<void> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) return;
  const assetsDir = path.join(webDist, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    cacheControl: false,
    // Vite's hashed bundles never change under their name; everything else is checked each time.
    setHeaders: (res, filePath) => res.setHeader('cache-control', filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  // Read again when the client is rebuilt under a running server (its asset names change).
  const indexFile = path.join(webDist, 'index.html');
  let index = { mtimeMs: 0, html: Buffer.alloc(0) };
  const indexHtml = () => {
    const stat = fs.statSync(indexFile, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs !== index.mtimeMs) index = { mtimeMs: stat.mtimeMs, html: fs.readFileSync(indexFile) };
    return index.html;
  };
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (isApiPath(url)) return notFound(request, reply, url);
    let file = '';
    try {
      file = path.join(webDist, path.normalize(decodeURIComponent(url)));
    } catch {
      // a malformed escape: not a file, so the page
    }
    // No file name holds a NUL (the file system refuses one with an exception): such a path names nothing.
    if (file.includes('\0')) return notFound(request, reply, url);
    if (url !== '/' && file.startsWith(webDist + path.sep) && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      return reply.sendFile(path.relative(webDist, file));
    }
    // The bundles and the globe's workers and textures are files only: a missing one is a 404, not the
    // page (a worker or a texture answered with HTML fails in ways nobody can read).
    if (FILE_ONLY_PATHS.test(url)) return notFound(request, reply, url);
    // Client routes (/device, /login, ...) all load the single page.
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml());
  });
}
