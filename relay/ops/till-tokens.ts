/**
 * Till tokens kept in a single shop's config file (`token create|revoke --config <file>`), and the
 * check every new till or admin-token label passes (the PostgreSQL store's too).
 */
import { chownSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { nameProblem } from '../../shared/characters.js';
import { createRelayToken, parseRelayConfig, readJsonFile, relayTillSchema } from './config.js';
import { RelayConfigError } from './config-error.js';

/**
 * Why a new till (or admin token) label can't be made, or null: the config's pattern, then the rule for
 * names people tell apart by eye (not blank, no padding). Checked when a label is made, not when a
 * config is read, so a file written before still loads.
 */
export function newLabelProblem(label: string): string | null {
  const r = relayTillSchema.shape.label.safeParse(label);
  if (!r.success) return r.error.issues[0]?.message ?? 'invalid';
  return nameProblem(label);
}

/**
 * Adds a till token to the config FILE (not env overrides), validating the result and
 * replacing the file atomically. Returns the token, to be shown once.
 */
export function addTillToken(file: string, label: string, now: () => number = Date.now): { token: string; label: string } {
  const problem = newLabelProblem(label);
  if (problem) throw new RelayConfigError(`--label: ${problem}`);
  const raw = readJsonFile(file);
  const tills = Array.isArray(raw.tills) ? [...(raw.tills as unknown[])] : [];
  const { token, tokenHash } = createRelayToken();
  tills.push({ label, tokenHash, createdAt: new Date(now()).toISOString() });
  const next = { ...raw, tills };
  parseRelayConfig(next, file);
  writeConfigFile(file, next);
  return { token, label };
}

/** Removes the till with `label` from the config file. Returns false when there was none. */
export function revokeTillToken(file: string, label: string): boolean {
  const raw = readJsonFile(file);
  const tills = Array.isArray(raw.tills) ? (raw.tills as Array<{ label?: unknown }>) : [];
  const kept = tills.filter((t) => t.label !== label);
  if (kept.length === tills.length) return false;
  const next = { ...raw, tills: kept };
  parseRelayConfig(next, file);
  writeConfigFile(file, next);
  return true;
}

function writeConfigFile(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  // Run as root on a server, the new file keeps the old one's owner, or the relay's own user could no
  // longer read it (its reload fails, then its next start).
  const before = statSync(file, { throwIfNoEntry: false });
  if (before && process.getuid?.() === 0) chownSync(tmp, before.uid, before.gid);
  renameSync(tmp, file);
}
