#!/usr/bin/env node
/**
 * A stand-in for `systemctl start|stop <unit>` where systemd is not PID 1 (a container, CI): it runs a unit's
 * [Service] as systemd would for a Type=simple unit, so a document's runbook that stops and starts units runs as
 * written. Read: User= (run as STANDIN_USER, a user that exists here, when we are root), WorkingDirectory=,
 * EnvironmentFile= (read as root, as systemd does), Environment=, ExecStart= (its `/usr/bin/node` is this node
 * when the machine has none there), Restart=always with RestartSec= (a detached process of this script stands
 * for the manager, started again when it exits) and TimeoutStopSec= (SIGTERM, then SIGKILL). A template unit's instance
 * (`name@8787`) reads `name@.service` with %i replaced. Units come from STANDIN_UNITS; the process id and the
 * unit's output (its journal) go in STANDIN_STATE as `<unit>.pid` (the manager's) and `<unit>.log`. Nothing
 * else of systemd (no sandboxing, no start limit) is stood in for.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [verb, name] = process.argv.slice(2);
const units = process.env.STANDIN_UNITS;
const state = process.env.STANDIN_STATE;
if (!units || !state || !name || !['start', 'stop', 'supervise'].includes(verb)) {
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

/** Runs the unit's ExecStart (as systemd's manager would): again after RestartSec= when Restart=always, until told to stop. */
function supervise() {
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
  const restartMs = Number(s.get('RestartSec')?.[0] ?? 0.1) * 1000;
  const log = openSync(join(state, `${unit}.log`), 'a');
  let stopping = false;
  let child;
  const run = () => {
    child = spawn(program, args, {
      cwd: s.get('WorkingDirectory')?.[0],
      env,
      stdio: ['ignore', log, log],
      ...(asUser ? { uid: id('-u'), gid: id('-g') } : {}),
    });
    child.on('exit', (code, signal) => {
      if (stopping) process.exit(0);
      writeFileSync(log, `systemctl stand-in: ${unit} exited (${signal ?? code})\n`, { flag: 'a' });
      if (s.get('Restart')?.[0] === 'always') setTimeout(run, restartMs);
      else process.exit(0);
    });
  };
  process.on('SIGTERM', () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    else process.exit(0);
  });
  run();
}

function start() {
  if (existsSync(pidFile) && alive(Number(readFileSync(pidFile, 'utf8')))) return;
  const manager = spawn(process.execPath, [process.argv[1], 'supervise', name], { detached: true, stdio: 'ignore', env: process.env });
  writeFileSync(pidFile, String(manager.pid));
  manager.unref();
}

async function stop() {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const timeoutSeconds = Number(settings().get('TimeoutStopSec')?.[0] ?? 90);
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  const until = Date.now() + timeoutSeconds * 1000;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(pid)) process.kill(-pid, 'SIGKILL');
  rmSync(pidFile);
}

if (verb === 'start') start();
else if (verb === 'supervise') supervise();
else await stop();
