/**
 * CPU time per phase of the noisy-neighbour bench, by part: each relay instance, PostgreSQL (its postmaster
 * and every backend under it), nginx (masters and workers), the bench's own process and the noisy merchant's client (its own process). On a shared 2-core
 * machine latencies scatter with the other load; the CPU a phase costs each part scatters far less, so a
 * change's effect on what the noisy merchant's allowed share costs is read here beside the latencies.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc's clock ticks a second, 100 on every Linux the bench runs on (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

export type CpuRoots = { relays: number[]; postgres: () => number | null; nginx: () => number[]; noisy?: () => number | null };

/** utime + stime of every process and of its children it has reaped (a backend that ended still counts), and its ppid, in clock ticks. */
function processTable(): Map<number, { ppid: number; ticks: number }> {
  const table = new Map<number, { ppid: number; ticks: number }>();
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

/** Ticks of `root` and every process under it. */
function treeTicks(table: ReturnType<typeof processTable>, root: number | null): number {
  if (root === null) return 0;
  let sum = 0;
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    sum += table.get(pid)?.ticks ?? 0;
    for (const [child, p] of table) if (p.ppid === pid) todo.push(child);
  }
  return sum;
}

type Sample = { relays: number[]; postgres: number; nginx: number; bench: number; noisy: number };

function sample(roots: CpuRoots): Sample {
  const table = processTable();
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  const usage = process.cpuUsage();
  return {
    relays: roots.relays.map((pid) => ms(treeTicks(table, pid))),
    postgres: ms(treeTicks(table, roots.postgres())),
    nginx: ms(roots.nginx().reduce((sum, pid) => sum + treeTicks(table, pid), 0)),
    bench: (usage.user + usage.system) / 1000,
    noisy: ms(treeTicks(table, roots.noisy?.() ?? null)),
  };
}

/** `since()` gives the CPU milliseconds each part used since the last call (or since the meter was made). */
export function cpuMeter(roots: CpuRoots) {
  let last = sample(roots);
  return {
    since() {
      const now = sample(roots);
      const out = {
        relays: now.relays.map((v, i) => Math.round(v - last.relays[i]!)),
        postgres: Math.round(now.postgres - last.postgres),
        nginx: Math.round(now.nginx - last.nginx),
        bench: Math.round(now.bench - last.bench),
        noisy: Math.round(now.noisy - last.noisy),
      };
      last = now;
      return out;
    },
  };
}
