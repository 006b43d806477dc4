import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_BASE, CLIENT_VERSION, Code, Header, message } from '@wildtrack/contract';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { AppError } from './http/errors.js';
import { installErrorHandling, isApiPath } from './http/error-handler.js';
import { requestLang } from './http/lang.js';
import { ReplayGuard, verifySignature } from './http/signature.js';
import { validatorCompiler } from './http/validation.js';
import type { CallHooks } from './http/calls.js';
import { AuthRepository } from './modules/auth/repository.js';
import { authRoutes } from './modules/auth/routes.js';
import { AuthService } from './modules/auth/service.js';
import { UserRepository } from './modules/user/repository.js';
import { userRoutes } from './modules/user/routes.js';
import { UserService } from './modules/user/service.js';
import { DeviceService } from './modules/device/service.js';
import { DeviceManagement } from './modules/device/management.js';
import { MountService } from './modules/device/mount.js';
import { DeviceQueries, DeviceRepository } from './modules/device/repository.js';
import { deviceRoutes } from './modules/device/routes.js';
import { uploadRoutes } from './modules/upload/routes.js';
import { FixRepository } from './modules/fix/repository.js';
import { fixRoutes } from './modules/fix/routes.js';
import { FixService } from './modules/fix/service.js';
import { mapRoutes } from './modules/map/routes.js';
import { ingestRoutes } from './ingest/routes.js';
import { createIngestService, type IngestService } from './ingest/service.js';
import { INGEST_WINDOW_MS } from '@wildtrack/contract';

const SEGMENT_BUILD_INTERVAL_MS = 10_000;
const SEGMENT_BUILD_BATCH_DAYS = 20;
const SEGMENT_BUILD_PASS_MS = 8_000;

export interface Services {
  auth: AuthService;
  users: UserService;
  devices: DeviceService;
  ingest: IngestService;
  fixes: FixService;
}

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
}

/** Folders of the built client (apps/web/dist) that hold only files. */
const FILE_ONLY_PATHS = /^\/(assets|cesium)\//;

export async function buildApp(config: Config, database: Db): Promise<BuiltApp> {
  const options: FastifyServerOptions = {
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    genReqId: () => randomUUID(),
    requestIdHeader: Header.requestId,
    trustProxy: config.trustProxy,
    // A malformed URL never reaches a route or the error handler: answer it with the envelope too.
    frameworkErrors: (_error, request, reply) => {
      const body = { Code: Code.Invalid, Msg: message(requestLang(request), 'error.badUrl'), Data: null };
      void (reply as unknown as FastifyReply).status(400).type('application/json; charset=utf-8').send(body);
    },
  };
  // With TLS the server is an https.Server; routes and hooks don't see the difference, the types do.
  const app: FastifyInstance = config.tls
    ? (Fastify as unknown as (o: object) => FastifyInstance)({
        ...options,
        https: { cert: fs.readFileSync(config.tls.cert), key: fs.readFileSync(config.tls.key) },
      })
    : Fastify(options);

  app.decorateRequest('rawBody', undefined);
  app.decorateRequest('lang', 'en');
  app.decorateRequest('session', undefined);
  app.addHook('onRequest', async (request, reply) => {
    request.lang = requestLang(request);
    reply.header(Header.requestId, request.id);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError(Code.BadJson, 'error.badJson', {}, 400), undefined);
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  // Responses are built from the contract's types; the schemas document them (OpenAPI) and the route
  // tests check them, so serialising needs no second validation pass.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Wildtrack console API', version: CLIENT_VERSION, description: 'Every call is a signed POST under /prod-api; see docs/api.md.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(compress, { threshold: 1024 });

  installErrorHandling(app, config.bodyLimit);

  const authRepo = new AuthRepository(database.db, database.sqlite);
  const userRepo = new UserRepository(database.db);
  const deviceQueries = new DeviceQueries(database.db, database.sqlite);
  const management = new DeviceManagement(deviceQueries);
  const services: Services = {
    auth: new AuthService(authRepo, userRepo, config.sessionIdleMs),
    users: new UserService(userRepo),
    devices: new DeviceService(new DeviceRepository(database.db)),
    ingest: createIngestService(database, config.dataDir),
    fixes: new FixService(management, new FixRepository(database.db, database.sqlite)),
  };
  const replay = new ReplayGuard();
  const hooks: CallHooks = {
    verify: (request) => verifySignature(request, replay),
    resolveSession: (token) => services.auth.resolveSession(token),
    openSealed: (field, value, code) => services.auth.openSealed(field, value, code),
  };

  authRoutes(app, hooks, services.auth, services.users);
  userRoutes(app, hooks, services.users, services.auth);
  ingestRoutes(app, services.ingest);
  deviceRoutes(app, hooks, management, new MountService(management, new DeviceRepository(database.db)), deviceQueries);
  fixRoutes(app, hooks, services.fixes, deviceQueries);
  uploadRoutes(app, hooks, config.dataDir, (session, url) => management.canSeeImage(session, url));
  mapRoutes(app, hooks, config.tileLayers);

  app.get(`${API_BASE}/docs`, { schema: { hide: true } }, async () => app.swagger());

  const webDist = config.webDist ?? path.resolve(import.meta.dirname, '../../web/dist');
  if (fs.existsSync(path.join(webDist, 'index.html'))) {
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
      if (isApiPath(url)) {
        return reply.status(404).send({ Code: Code.UnknownPath, Msg: message(request.lang, 'error.notFound', { path: `GET ${url}` }), Data: null });
      }
      let file = '';
      try {
        file = path.join(webDist, path.normalize(decodeURIComponent(url)));
      } catch {
        // a malformed escape: not a file, so the page
      }
      if (url !== '/' && file.startsWith(webDist + path.sep) && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
        return reply.sendFile(path.relative(webDist, file));
      }
      // The bundles and the globe's workers and textures are files only: a missing one is a 404, not the
      // page (a worker or a texture answered with HTML fails in ways nobody can read).
      if (FILE_ONLY_PATHS.test(url)) {
        return reply.status(404).send({ Code: Code.UnknownPath, Msg: message(request.lang, 'error.notFound', { path: `GET ${url}` }), Data: null });
      }
      // Client routes (/device, /login, ...) all load the single page.
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml());
    });
  }

  const sweep = setInterval(() => {
    services.auth.sweepIdleSessions().catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
    services.ingest.sweepNonces(Date.now() - 2 * INGEST_WINDOW_MS).catch((err: unknown) => app.log.warn({ err }, 'nonce sweep failed'));
  }, 10 * 60_000);
  sweep.unref();
  // Track segments that writes made stale are built again in the background: small batches (a day of
  // 1 Hz fixes is 86,400 rows read in one go) until none is left or the pass has run its time.
  let building = false;
  const buildStale = async () => {
    const until = Date.now() + SEGMENT_BUILD_PASS_MS;
    while (Date.now() < until && (await services.fixes.buildStaleSegments(SEGMENT_BUILD_BATCH_DAYS)) === SEGMENT_BUILD_BATCH_DAYS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const segments = setInterval(() => {
    if (building) return;
    building = true;
    buildStale()
      .catch((err: unknown) => app.log.warn({ err }, 'track segment build failed'))
      .finally(() => {
        building = false;
      });
  }, SEGMENT_BUILD_INTERVAL_MS);
  segments.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    clearInterval(segments);
  });

  return { app, services };
}
