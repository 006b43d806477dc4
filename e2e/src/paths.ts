import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const serverMain = `${repoRoot}apps/server/dist/main.js`;
export const serverCli = `${repoRoot}apps/server/dist/cli.js`;
export const webIndex = `${repoRoot}apps/web/dist/index.html`;
export const screenshotDir = `${repoRoot}e2e/screenshots`;
