/**
 * RELAY_LOG_LEVEL decides which of the relay's log lines reach stderr: debug lines only with `debug`,
 * info and above by default. Run in a child process, so the real stderr is what is read.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = `import { defaultLog } from './relay/ops/logger.ts';
for (const level of ['debug', 'info', 'warn', 'error']) defaultLog({ level, msg: level + '_line' });`;

async function printed(level: string | undefined): Promise<string[]> {
  const env = { ...process.env };
  delete env.RELAY_LOG_LEVEL;
  if (level !== undefined) env.RELAY_LOG_LEVEL = level;
  const { stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { env });
  return stderr
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { msg: string }).msg);
}

it('prints debug lines only with RELAY_LOG_LEVEL=debug, and leaves out lines below the level asked', async () => {
  const [unset, debug, warn, odd] = await Promise.all([printed(undefined), printed('debug'), printed('warn'), printed('loud')]);
  expect(unset).toEqual(['info_line', 'warn_line', 'error_line']);
  expect(debug).toEqual(['debug_line', 'info_line', 'warn_line', 'error_line']);
  expect(warn).toEqual(['warn_line', 'error_line']);
  expect(odd).toEqual(unset);
}, 30_000);
