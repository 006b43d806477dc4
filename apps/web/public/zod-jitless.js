// Loaded by index.html before the console's modules. zod (v4) probes `new Function('')` when it builds its
// first schema, to decide whether it may compile parsers; the console's CSP (script-src without
// 'unsafe-eval', apps/server/src/http/security-headers.ts) reports that probe as a violation even though zod
// catches it. zod reads its settings from this global (zod/v4/core's globalConfig, what z.config() sets):
// jitless parses the same, only not compiled. It must be set before the first schema, hence a classic
// script ahead of the module graph rather than a z.config() call inside it.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
