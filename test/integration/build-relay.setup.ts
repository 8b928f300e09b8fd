/**
 * Before the integration tests (vitest.config.ts' globalSetup): builds the relay as operators run it
 * (`npm run build:relay`, a second or two), so every test that starts it as its own process runs this
 * tree's code as plain JavaScript, never an older build (test/integration/relay/helpers.ts' relayEntry).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function setup(): void {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const built = spawnSync(process.execPath, ['scripts/build-relay.mjs'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0)
    throw new Error(`npm run build:relay failed, so the relay's process tests cannot run:\n${built.stderr}${built.stdout}`);
}
