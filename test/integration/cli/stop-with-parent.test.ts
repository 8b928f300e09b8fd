/**
 * A server started by npm stops when npm goes away, even when npm goes away during the server's start-up
 * (seen on a loaded machine: npm stopped right after the ready line, before the server had looked at its
 * parent, and the orphan took ppid 1 for "run by systemd" and ran on).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'momo-parent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stopWithParent', () => {
  it('stops a server whose parent died after the server loaded but before it registered', async () => {
    const marker = join(dir, 'stopped');
    const server = join(dir, 'server.ts');
    writeFileSync(
      server,
      `import { writeFileSync } from 'node:fs';
import { stopWithParent } from ${JSON.stringify(join(root, 'shared', 'stop-with-parent.ts'))};
process.stdout.write('loaded\\n');
setTimeout(() => process.exit(3), 15_000); // never linger
// Registered well after the parent is gone (the start-up of a slow server on a loaded machine).
setTimeout(() => stopWithParent((reason) => { writeFileSync(${JSON.stringify(marker)}, reason); process.exit(0); }, 100), 1_000);
`,
    );
    // The parent (npm's stand-in) starts the server, waits until it has loaded, then exits.
    const parentCode = `
const child = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(server)}], { cwd: ${JSON.stringify(root)}, stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.once('data', () => process.exit(0));`;
    const parent = spawn(process.execPath, ['-e', parentCode], { stdio: 'inherit' });
    expect(await new Promise((resolve) => parent.once('exit', resolve))).toBe(0);
    const deadline = Date.now() + 10_000;
    while (!existsSync(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'still running').toBe('parent-exited');
  });
});
