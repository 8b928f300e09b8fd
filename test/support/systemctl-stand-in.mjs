#!/usr/bin/env node
/**
 * A stand-in for `systemctl start|stop <unit>` where systemd is not PID 1 (a container, CI): it runs a unit's
 * [Service] as systemd would for a Type=simple unit, so a document's runbook that stops and starts units runs as
 * written. Read: User= (run as STANDIN_USER, a user that exists here, when we are root), WorkingDirectory=,
 * EnvironmentFile= (read as root, as systemd does), Environment=, ExecStart= (its `/usr/bin/node` is this node
 * when the machine has none there) and TimeoutStopSec= (SIGTERM, then SIGKILL). A template unit's instance
 * (`name@8787`) reads `name@.service` with %i replaced. Units come from STANDIN_UNITS; the process id and the
 * unit's output (its journal) go in STANDIN_STATE as `<unit>.pid` and `<unit>.log`. Nothing else of systemd
 * (no Restart=, no sandboxing) is stood in for.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [verb, name] = process.argv.slice(2);
const units = process.env.STANDIN_UNITS;
const state = process.env.STANDIN_STATE;
if (!units || !state || !name || !['start', 'stop'].includes(verb)) {
  console.error('systemctl stand-in: start|stop <unit>, with STANDIN_UNITS and STANDIN_STATE set');
  process.exit(2);
}
const unit = name.replace(/\.service$/, '');
const pidFile = join(state, `${unit}.pid`);

/** The unit's settings, name → values in order, with a template's %i filled in. */
function settings() {
  const at = unit.indexOf('@');
  const file = at < 0 ? `${unit}.service` : `${unit.slice(0, at + 1)}.service`;
  const text = readFileSync(join(units, file), 'utf8').replaceAll('%i', at < 0 ? '' : unit.slice(at + 1));
  const found = new Map();
  for (const m of text.matchAll(/^([A-Za-z]+)=(.*)$/gm)) found.set(m[1], [...(found.get(m[1]) ?? []), m[2]]);
  return found;
}

/** Whether the process runs (a zombie, exited but not yet reaped by whoever adopted it, does not). */
const alive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

function start() {
  if (existsSync(pidFile) && alive(Number(readFileSync(pidFile, 'utf8')))) return;
  const s = settings();
  const env = { PATH: process.env.PATH ?? '' };
  for (const file of s.get('EnvironmentFile') ?? []) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
      if (m) env[m[1]] = m[2];
    }
  }
  for (const assignment of s.get('Environment') ?? []) {
    const eq = assignment.indexOf('=');
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  const [command, ...args] = s.get('ExecStart')[0].split(/\s+/);
  const program = command === '/usr/bin/node' && !existsSync(command) ? process.execPath : command;
  const asUser = s.has('User') && process.getuid() === 0 && process.env.STANDIN_USER;
  const id = (flag) => Number(execFileSync('id', [flag, process.env.STANDIN_USER], { encoding: 'utf8' }).trim());
  const log = openSync(join(state, `${unit}.log`), 'a');
  const child = spawn(program, args, {
    cwd: s.get('WorkingDirectory')?.[0],
    env,
    detached: true,
    stdio: ['ignore', log, log],
    ...(asUser ? { uid: id('-u'), gid: id('-g') } : {}),
  });
  writeFileSync(pidFile, String(child.pid));
  child.unref();
}

async function stop() {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const timeoutSeconds = Number(settings().get('TimeoutStopSec')?.[0] ?? 90);
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  const until = Date.now() + timeoutSeconds * 1000;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile);
}

if (verb === 'start') start();
else await stop();
