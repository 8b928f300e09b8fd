/**
 * The process boundaries in eslint.config.js fail on a deliberate bad import: each case lints a
 * one-line source as if it were a file in that folder (ESLint's Node API, the project's own config).
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

// Loading the config and the TypeScript parser takes seconds on a busy machine: once, before the cases.
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT });
  await eslint.lintText('export {};\n', { filePath: resolve(ROOT, 'renderer/src/warm-up.ts') });
}, 60_000);

/** The boundary rules' messages for `code` linted as `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: resolve(ROOT, filePath) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const refused: Array<[string, string, RegExp]> = [
  [
    'renderer/src/bad.ts',
    "import { createTillCore } from '../../electron/core/index.js';",
    /renderer\/ reaches the core only through window.momo/,
  ],
  ['renderer/src/bad.ts', "import { ipcRenderer } from 'electron';", /renderer\//],
  ['renderer/src/bad.ts', "type Core = import('../../electron/core/index.js').TillCore;", /renderer\//],
  ['renderer/src/screens/bad.tsx', "import { startRelay } from '../../../relay/server.js';", /renderer\//],
  ['relay/bad.ts', "import { createLogger } from '../electron/core/logger.js';", /relay\/ is its own program/],
  ['relay/bad.ts', "export { startSandbox } from '../sandbox/server.js';", /relay\/ is its own program/],
  ['sandbox/bad.ts', "import type { TillCore } from '../electron/core/index.js';", /sandbox\/ is its own program/],
  ['sandbox/bad.ts', "import { app } from 'electron';", /sandbox\//],
  ['shared/bad.ts', "import { startRelay } from '../relay/server.js';", /shared\/ is used by every program/],
  ['shared/wire/bad.ts', "import { startSandbox } from '../../sandbox/server.js';", /shared\//],
  ['shared/bad.ts', "import { App } from '../renderer/src/app.js';", /shared\//],
  ['shared/bad.ts', "import { createTillCore } from '../electron/core/index.js';", /shared\//],
  ['electron/core/bad.ts', "import type { SandboxClock } from '../../sandbox/clock.js';", /only embedded.ts starts the sandbox and relay/],
  ['electron/core/bad.ts', "const relay = await import('../../relay/server.js');", /only embedded.ts starts the sandbox and relay/],
  ['electron/core/bad.ts', "import { app } from 'electron';", /plain Node/],
  ['electron/main/bad.ts', "import { startSandbox } from '../../sandbox/server.js';", /only through the core/],
  ['electron/preload/bad.ts', "import { startRelay } from '../../relay/server.js';", /only through the core/],
  // Not a boundary, but the same rule: an object matcher would take the regular expression as matching anything.
  ['test/unit/bad.test.ts', 'expect(answer).toMatchObject({ ok: false, message: /refused/ });', /expect.stringMatching/],
];

const allowed: Array<[string, string]> = [
  ['electron/core/embedded.ts', "const sandbox = await import('../../sandbox/server.js');"],
  ['electron/core/embedded.ts', "import type { SandboxClock } from '../../sandbox/clock.js';"],
  ['electron/core/bad.ts', "import { startEmbedded } from './embedded.js';"],
  ['electron/main/bad.ts', "import { app } from 'electron';"],
  ['renderer/src/bad.ts', "import { formatCedis } from '../../shared/money.js';"],
  ['relay/bad.ts', "import { verifyWebhook } from '../shared/webhook-signature.js';"],
  ['sandbox/bad.ts', "import { api } from './api-routes.js';"],
  ['test/unit/bad.test.ts', 'expect(answer).toMatchObject({ ok: false, message: expect.stringMatching(/refused/) });'],
];

describe('lint boundaries between the programs', () => {
  it.each(refused)('%s: refuses %s', async (filePath, code, message) => {
    const errors = await boundaryErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each(allowed)('%s: allows %s', async (filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
