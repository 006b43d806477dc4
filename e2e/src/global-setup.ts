import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot, screenshotDir, serverMain, webIndex } from './paths';

/** The newest modification time of the files below a directory (node_modules and dist left out). */
function newest(dir: string): number {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function stale(output: string, sources: string[]): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((dir) => existsSync(dir) && newest(dir) > built);
}

/**
 * The specs drive the built app: build the client or the server when the build is missing or older than
 * its sources (or the contract), so a run never tests yesterday's bundle. E2E_NO_BUILD=1 skips this.
 */
export default function setup(project: TestProject): () => void {
  // Vitest sets NODE_ENV=test, which would give Vite a development React build.
  const env = { ...process.env, NODE_ENV: 'production' };
  mkdirSync(screenshotDir, { recursive: true });
  // The run's prepared data folders (harness.ts startServer), gone with the run.
  const templates = mkdtempSync(join(tmpdir(), 'wildtrack-e2e-templates-'));
  project.provide('e2eTemplates', templates);
  const teardown = () => rmSync(templates, { recursive: true, force: true });
  if (process.env.E2E_NO_BUILD === '1') return teardown;
  const contract = join(repoRoot, 'packages/contract/src');
  if (stale(webIndex, [join(repoRoot, 'apps/web/src'), join(repoRoot, 'apps/web/index.html'), join(repoRoot, 'apps/web/vite.config.ts'), contract])) {
    execSync('npm run build -w @wildtrack/web', { cwd: repoRoot, stdio: 'inherit', env });
  }
  if (stale(serverMain, [join(repoRoot, 'apps/server/src'), contract])) {
    execSync('npm run build -w @wildtrack/server', { cwd: repoRoot, stdio: 'inherit', env });
  }
  return teardown;
}
