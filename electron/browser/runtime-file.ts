/**
 * The running browser-mode till, for a second `npm start`: `browser-mode.json` in the data folder,
 * readable by the user only (0600), holding the server's origin and the control secret that gets a
 * fresh launch link from it. Whoever can read it can read the till's database too.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_HEADER, LAUNCH_PATH } from './server.js';

export const RUNTIME_FILE = 'browser-mode.json';

type Runtime = { pid: number; origin: string; control: string };

export function writeRuntimeFile(dataDir: string, runtime: Runtime): () => void {
  const path = join(dataDir, RUNTIME_FILE);
  rmSync(path, { force: true }); // a stale file keeps its old mode: write a new one
  writeFileSync(path, JSON.stringify(runtime), { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600); // whatever the umask
  return () => rmSync(path, { force: true });
}

/** A launch link from the till already running on this data folder, or null when none answers. */
export async function launchUrlOfRunning(dataDir: string): Promise<string | null> {
  let runtime: Runtime;
  try {
    runtime = JSON.parse(readFileSync(join(dataDir, RUNTIME_FILE), 'utf8')) as Runtime;
  } catch {
    return null;
  }
  try {
    const res = await fetch(`${runtime.origin}${LAUNCH_PATH}`, {
      method: 'POST',
      headers: { [CONTROL_HEADER]: runtime.control },
      signal: AbortSignal.timeout(3_000),
    });
    if (!res.ok) return null;
    return ((await res.json()) as { url: string }).url;
  } catch {
    return null;
  }
}
