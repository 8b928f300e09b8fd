/**
 * CPU time of process trees, from /proc: a process and every process under it, with the children each has
 * reaped (a PostgreSQL backend that ended still counts). Read by the benches that weigh what a part of the
 * system costs, which scatters far less on a shared machine than how fast it answers.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc's clock ticks a second, 100 on every Linux the bench runs on (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

export type ProcessTable = Map<number, { ppid: number; ticks: number }>;

/** utime + stime of every process and of the children it has reaped, and its ppid, in clock ticks. */
export function processTable(): ProcessTable {
  const table: ProcessTable = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command may hold spaces and parentheses: the fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** CPU milliseconds of `root` and every process under it, as `table` has them. */
export function treeCpuMs(table: ProcessTable, root: number | null): number {
  if (root === null) return 0;
  let ticks = 0;
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    ticks += table.get(pid)?.ticks ?? 0;
    for (const [child, p] of table) if (p.ppid === pid) todo.push(child);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The pid a pid file names on its first line (a postmaster's, nginx's), or null. */
export function pidIn(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
