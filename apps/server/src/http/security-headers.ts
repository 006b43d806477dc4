import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TileLayers } from '@wildtrack/contract';

/** The national (Tianditu) layers: the web builds their URLs from the user's key (t0…t7.tianditu.gov.cn). */
const TIANDITU = 'https://*.tianditu.gov.cn';

/** The origins (scheme://host[:port]) of the configured tile layers' URL templates. */
export function tileOrigins(layers: TileLayers): string[] {
  const origins = new Set<string>();
  for (const layer of Object.values(layers)) {
    for (const template of layer.Tiles) {
      try {
        // The template's {z}/{x}/{y} (and a {s} in the host) must not reach the URL parser.
        const u = new URL(template.replace(/\{[a-z]+\}/gi, '0'));
        if (u.protocol === 'https:' || u.protocol === 'http:') origins.add(u.origin);
      } catch {
        // not a URL: config.ts refuses such templates already
      }
    }
  }
  return [...origins].sort();
}

/**
 * Security headers on every answer (issue 11, M5), by @fastify/helmet. The console's CSP, each source and why:
 * - `default-src 'self'`: anything not named below only from the server itself.
 * - `script-src 'self' 'wasm-unsafe-eval'`: the built console has no inline script (Vite emits files) and no
 *   JavaScript eval (zod runs jitless in the browser, apps/web/src/zod-jitless.ts); 'wasm-unsafe-eval' lets
 *   CesiumJS compile its WebAssembly decoders (meshoptimizer, KTX2/Basis), which compiles no JavaScript.
 * - `worker-src 'self' blob:`: CesiumJS's workers are files under /cesium/Workers; MapLibre starts its worker
 *   from a blob: URL it makes of its own bundled code.
 * - `img-src 'self' data: blob:` + tile hosts: uploaded photos and icons from the server; antd and Cesium
 *   draw some icons as data: URLs; MapLibre and Cesium turn fetched tiles into blob: images; the tile layers
 *   the server is configured with, and Tianditu (the key check loads one tile as an <img>).
 * - `connect-src 'self'` + tile hosts: the API; MapLibre and Cesium fetch() tiles (and Cesium its own
 *   /cesium/Assets) rather than using <img>.
 * - `style-src 'self' 'unsafe-inline'`: antd writes its CSS-in-JS into <style> elements and React sets style
 *   attributes; only styles, no script.
 * - `font-src 'self' data:`: bundled fonts (Cesium's widgets inline some as data:).
 * - `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`, `frame-ancestors 'none'` (and
 *   X-Frame-Options DENY for old browsers): nothing embeds the console, no plugin content.
 * Besides: nosniff, Referrer-Policy strict-origin-when-cross-origin (tile servers such as OpenStreetMap's ask
 * for a referrer; only the origin leaves), and HSTS only on answers that went over TLS (the server's own, or a
 * trusted proxy's X-Forwarded-Proto): HSTS over plain HTTP is ignored by browsers and would pin a developer's
 * localhost to https.
 */
export async function registerSecurityHeaders(app: FastifyInstance, tileLayers: TileLayers): Promise<void> {
  const headers = await helmetHeaders(helmetOptions(tileLayers));
  // One precomputed set on every answer: @fastify/helmet builds helmet (and parses the CSP's directives)
  // again for each request, about 2 % of a signed call's CPU under bench/load; the headers never change.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    done();
  });
}

function helmetOptions(tileLayers: TileLayers): FastifyHelmetOptions {
  const tiles = [...tileOrigins(tileLayers), TIANDITU];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        imgSrc: ["'self'", 'data:', 'blob:', ...tiles],
        connectSrc: ["'self'", ...tiles],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  };
}

/**
 * The headers @fastify/helmet sets with these options, taken once from an answer of a bare instance
 * that has the plugin and nothing else: the plugin stays the one source of the headers and their
 * values, and the server sends them without building them per answer.
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get('/', (_request, reply) => reply.send(''));
    const bare = Fastify({ logger: false });
    bare.get('/', (_request, reply) => reply.send(''));
    const [withHelmet, without] = await Promise.all([probe.inject({ method: 'GET', url: '/' }), bare.inject({ method: 'GET', url: '/' })]);
    await bare.close();
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(withHelmet.headers)) {
      if (without.headers[name] === undefined && value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    if (!out['content-security-policy']) throw new Error('@fastify/helmet set no content-security-policy');
    return out;
  } finally {
    await probe.close();
  }
}
