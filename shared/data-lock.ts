/**
 * One program per data dir: `<data>/<program>.lock` holds the owner's pid; a lock left by a process that no
 * longer exists (killed hard) is taken over. Two simulators on one folder would both resume the same pending
 * deliveries; the till holds `till.lock` so its terminal commands (reset-owner-pin) refuse to run while it is open.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dataDir: string, program = 'sandbox'): () => void {
  const path = join(dataDir, `${program}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new Error(
          owner === process.pid
            ? `The data dir ${dataDir} is already open in this process; close the other ${program} first`
            : `The data dir ${dataDir} is in use by another ${program} (pid ${owner})`,
        );
      }
      rmSync(path, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock the data dir ${dataDir}`);
}
