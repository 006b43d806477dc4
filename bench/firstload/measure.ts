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
export const MAP_CHUNKS = /^assets\/(maplibre|deckgl|cesium|geo-common|coast\.worker)-/;

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

/**
 * The chunks of the app's texts /login fetches before it renders: the signed-out part of one language
 * (apps/web/src/i18n/parts.ts; the signed-in part, zh-CN-signedIn-<hash>.js, waits for a signed-in screen).
 */
export const LANGUAGE_CHUNK = /^assets\/(zh-CN|en-US)-signedOut-[\w-]+\.js$/;

/**
 * The chunk of a language's texts, which the console fetches before its first render: `lang`'s, or the
 * larger of the two (the worst first load, for the budget).
 */
function languageChunk(dist: string, lang?: 'zh-CN' | 'en-US'): string[] {
  const files = fs.readdirSync(path.join(dist, 'assets')).map((name) => `assets/${name}`).filter((file) => LANGUAGE_CHUNK.test(file));
  const wanted = lang ? files.filter((file) => file.startsWith(`assets/${lang}-`)) : files;
  const size = (file: string) => gzipSync(fs.readFileSync(path.join(dist, file))).length;
  return wanted.sort((a, b) => size(b) - size(a)).slice(0, 1);
}

/**
 * The JavaScript /login loads: what index.html asks for and everything that imports statically, plus the
 * texts of one language (`lang`'s, or the larger catalogue when none is given).
 */
export async function measureFirstLoad(dist: string, lang?: 'zh-CN' | 'en-US'): Promise<FirstLoad> {
  await init;
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const seen = new Set<string>();
  const queue = [...entryScripts(html), ...languageChunk(dist, lang)];
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
