// What a browser loads before the first screen can draw: the built index.html's entry script and
// modulepreloads, and every chunk they import statically, transitively. Dynamic import() is left out: it
// is what a route loads when it is opened.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';

export interface Chunk {
  /** Path inside dist, e.g. assets/index-abc.js. */
  file: string;
  bytes: number;
  gzip: number;
}

export interface FirstLoad {
  chunks: Chunk[];
  gzip: number;
}

/** §7 of issue 9: /login loads at most this much JavaScript, gzip. */
export const BUDGET_GZIP = 350_000;

/** Chunks that only the map screens may load (names from apps/web/vite.config.ts's groups). */
export const MAP_CHUNKS = /^assets\/(maplibre|deckgl|cesium|geo-common)-/;

/** The scripts index.html asks for: the entry, any classic script (public/zod-jitless.js) and the modulepreloads. */
export function entryScripts(html: string): string[] {
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const urls = tags.flatMap((tag) => {
    const isEntry = /^<script\b/.test(tag);
    const isPreload = /^<link\b/.test(tag) && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    return (isEntry || isPreload) && url ? [url] : [];
  });
  return urls.map((url) => url.replace(/^\//, ''));
}

/** The chunks a built module imports statically (import … from, import "…", export … from). */
export function staticImports(source: string): string[] {
  const [imports] = parse(source);
  // d === -1: a static import or re-export; -2 is import.meta, >= 0 a dynamic import().
  return imports.filter((i) => i.d === -1 && i.n !== undefined).map((i) => i.n!);
}

export async function measureFirstLoad(dist: string): Promise<FirstLoad> {
  await init;
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const seen = new Set<string>();
  const queue = entryScripts(html);
  const chunks: Chunk[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(path.join(dist, file));
    chunks.push({ file, bytes: source.length, gzip: gzipSync(source).length });
    for (const spec of staticImports(source.toString('utf8'))) {
      if (!spec.startsWith('.') && !spec.startsWith('/')) throw new Error(`${file} imports ${spec}: not a chunk of the build`);
      queue.push(spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(file), spec));
    }
  }
  chunks.sort((a, b) => b.gzip - a.gzip);
  return { chunks, gzip: chunks.reduce((sum, c) => sum + c.gzip, 0) };
}
