/**
 * npm run reset-owner-pin [-- --data <folder>]: sets a new owner PIN when the old one is forgotten. Run it
 * on the till's own computer with the till closed; it asks for the new PIN twice. Staff PINs are kept.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { resetOwnerPin } from '../electron/core/people/index.js';

/** Where Electron keeps the till's data (app.getPath('userData') for the app named momo-till). */
function defaultDataDir(): string {
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'momo-till');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'momo-till');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'momo-till');
}

const { values } = parseArgs({ options: { data: { type: 'string' } } });
const dataDir = values.data ?? defaultDataDir();
const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: false });
const lines = rl[Symbol.asyncIterator]();
const ask = async (question: string) => {
  process.stdout.write(question);
  return String((await lines.next()).value ?? '').trim();
};

try {
  console.log(`Till data: ${dataDir}`);
  const pin = await ask('New owner PIN (4 to 6 digits): ');
  if ((await ask('The same PIN again: ')) !== pin) throw new Error('The two PINs are not the same; nothing was changed.');
  await resetOwnerPin(dataDir, pin);
  console.log('The owner PIN is reset. Start the till and sign in with it.');
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  rl.close();
}
