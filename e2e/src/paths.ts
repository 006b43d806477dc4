import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The server build the specs start: apps/server/dist, or SERVER_DIST (a private build made with SERVER_OUTDIR). */
const serverDist = process.env.SERVER_DIST ?? `${repoRoot}apps/server/dist`;
export const serverMain = `${serverDist}/main.js`;
export const serverCli = `${serverDist}/cli.js`;
export const webIndex = `${repoRoot}apps/web/dist/index.html`;
export const screenshotDir = `${repoRoot}e2e/screenshots`;
