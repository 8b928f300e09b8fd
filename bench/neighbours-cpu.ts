/**
 * CPU time per phase of the noisy-neighbour bench, by part: each relay instance, PostgreSQL (its postmaster
 * and every backend under it), nginx (masters and workers), the bench's own process and the noisy merchant's client (its own process). On a shared 2-core
 * machine latencies scatter with the other load; the CPU a phase costs each part scatters far less, so a
 * change's effect on what the noisy merchant's allowed share costs is read here beside the latencies.
 */
import { processTable, treeCpuMs } from './process-cpu.js';

export type CpuRoots = { relays: number[]; postgres: () => number | null; nginx: () => number[]; noisy?: () => number | null };

type Sample = { relays: number[]; postgres: number; nginx: number; bench: number; noisy: number };

function sample(roots: CpuRoots): Sample {
  const table = processTable();
  const usage = process.cpuUsage();
  return {
    relays: roots.relays.map((pid) => treeCpuMs(table, pid)),
    postgres: treeCpuMs(table, roots.postgres()),
    nginx: roots.nginx().reduce((sum, pid) => sum + treeCpuMs(table, pid), 0),
    bench: (usage.user + usage.system) / 1000,
    noisy: treeCpuMs(table, roots.noisy?.() ?? null),
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
