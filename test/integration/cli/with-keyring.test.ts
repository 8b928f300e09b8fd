/**
 * scripts/with-keyring.sh, the real keychain every keychain test runs in: when its gnome-keyring daemon aborts, the
 * next keychain call has D-Bus start another, which must come up unlocked over the same keyring file (the system's
 * service file starts a locked one that asks for a prompt nobody can answer); and the command's exit status comes back.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'with-keyring.sh');

// Inside the script's session: store a secret, abort this session's daemon as a GLib fatal error does, and read the
// secret back at once (D-Bus starts a new daemon for the read); exit 7 so the test sees the command's own status.
const SCENARIO = String.raw`
set -u
keyring() { timeout 20 node -e "const {Entry}=require('@napi-rs/keyring'); const e=new Entry('momo-with-keyring-test','a'); $1"; }
keyring "e.setPassword('kept')"
for pid in $(pgrep gnome-keyring); do
  if tr '\0' '\n' < /proc/$pid/environ 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"; then kill -ABRT "$pid"; fi
done
keyring "console.log('read:' + e.getPassword())"
exit 7
`;

describe('with-keyring.sh', () => {
  it("a daemon that died comes back unlocked at the next call: a secret stored before reads back; the command's exit status is kept", () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.MOMO_KEYRING_INNER; // a session of its own, not the one this test runs in
    const run = spawnSync(SCRIPT, ['bash', '-c', SCENARIO], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout).toContain('read:kept');
    expect(run.status).toBe(7);
  });
});
