/**
 * The embedded TEST default: the core starts the sandbox simulator and a relay on loopback, with the
 * simulator's demo merchant and a relay token of its own (kept in the keychain, only its hash is
 * given to the relay), so a newcomer charges a sandbox payment with nothing to configure. Their data
 * lives in <dataDir>/embedded/{sandbox,relay} (that is the simulator's and relay's own state, not the
 * till's). The same ports are reused on the next start when free, so a result the simulator is still
 * retrying reaches the relay at the address it was given.
 *
 * The simulator keeps its keys' secrets encrypted at rest; the master key that encrypts them is kept
 * in the keychain too (never the simulator's own `master.key` file, which would put the demo secret
 * within reach of anyone who can read the data folder). A `master.key` left by an older version is
 * moved into the keychain once and deleted.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { RELAY_TOKEN } from '../../shared/relay-wire.js';
import type { Logger } from './logger.js';
import type { SecretStore } from './storage/index.js';
import type { SandboxClock } from '../../sandbox/clock.js';

/** The embedded simulator's clock (tests hold it); the rest of the core names it through this module. */
export type EmbeddedClock = SandboxClock;

export type EmbeddedServices = {
  baseUrl: string;
  merchantId: string;
  publicKeyId: string;
  secretKey: string;
  relayUrl: string;
  relayToken: string;
  ports: { sandbox: number; relay: number };
  close(): Promise<void>;
};

const TOKEN_ACCOUNT = 'test.embedded-relay-token';
const MASTER_KEY_ACCOUNT = 'test.embedded-sandbox-master-key';
const MASTER_KEY_BYTES = 32;

function decodeMasterKey(text: string | null): Buffer | null {
  if (!text) return null;
  const key = Buffer.from(text, 'base64');
  return key.length === MASTER_KEY_BYTES && key.toString('base64') === text ? key : null;
}

/**
 * The embedded simulator's master key, from the keychain. A `master.key` file in the simulator's data
 * dir (left by an older version) is the key its secrets were encrypted with: it is moved into the
 * keychain, read back to be sure, then deleted. `created` says the key is new (nothing could decrypt
 * older simulator data).
 */
async function embeddedMasterKey(sandboxDir: string, secrets: SecretStore, log: Logger): Promise<{ key: Buffer; created: boolean }> {
  const file = join(sandboxDir, 'master.key');
  if (existsSync(file)) {
    const key = readFileSync(file);
    if (key.length === MASTER_KEY_BYTES) {
      const text = key.toString('base64');
      await secrets.set(MASTER_KEY_ACCOUNT, text);
      if ((await secrets.get(MASTER_KEY_ACCOUNT)) !== text)
        throw new Error('The embedded simulator key could not be moved into the keychain');
      unlinkSync(file);
      log.info('embedded.master_key_moved_to_keychain');
      return { key, created: false };
    }
    unlinkSync(file); // not a key the simulator could have used: nothing to keep
  }
  const stored = decodeMasterKey(await secrets.get(MASTER_KEY_ACCOUNT));
  if (stored) return { key: stored, created: false };
  const key = randomBytes(MASTER_KEY_BYTES);
  await secrets.set(MASTER_KEY_ACCOUNT, key.toString('base64'));
  return { key, created: true };
}

function isAddressInUse(error: unknown): boolean {
  return (error as { code?: string }).code === 'EADDRINUSE';
}

async function listenPreferring<T>(preferred: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  if (preferred) {
    try {
      return await start(preferred);
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
    }
  }
  return start(0);
}

/** The till's token for the embedded relay, kept in the keychain (made once). */
async function embeddedRelayToken(secrets: SecretStore, create: () => { token: string }): Promise<string> {
  const stored = await secrets.get(TOKEN_ACCOUNT);
  if (stored && RELAY_TOKEN.test(stored)) return stored;
  const token = create().token;
  await secrets.set(TOKEN_ACCOUNT, token);
  return token;
}

export async function startEmbedded(options: {
  dataDir: string;
  secrets: SecretStore;
  log: Logger;
  preferredPorts: { sandbox: number; relay: number } | null;
  timeScale?: number;
  clock?: EmbeddedClock;
}): Promise<EmbeddedServices> {
  const [{ startSandbox }, { startRelay }, { parseRelayConfig, createRelayToken, hashRelayToken }] = await Promise.all([
    import('../../sandbox/server.js'),
    import('../../relay/http/index.js'),
    import('../../relay/ops/index.js'),
  ]);
  const quiet = (source: string) => (line: Record<string, unknown>) => {
    if (line.level === 'error' || line.level === 'warn') options.log.warn(`${source}.log`, { line });
  };

  const token = await embeddedRelayToken(options.secrets, createRelayToken);
  options.log.registerSecret(token);

  const sandboxDir = join(options.dataDir, 'embedded', 'sandbox');
  const master = await embeddedMasterKey(sandboxDir, options.secrets, options.log);
  options.log.registerSecret(master.key.toString('base64'));
  const start = () =>
    listenPreferring(options.preferredPorts?.sandbox, (port) =>
      startSandbox({
        port,
        host: '127.0.0.1',
        dataDir: sandboxDir,
        masterKey: master.key,
        timeScale: options.timeScale ?? 1,
        ...(options.clock ? { clock: options.clock } : {}),
        signedPayload: 'body',
        log: quiet('sandbox'),
      }),
    );
  let sandbox;
  try {
    sandbox = await start();
  } catch (error) {
    // The keychain lost the key (a reset keychain): the old demo data cannot be decrypted by anyone.
    // Set it aside (nothing is deleted) and start a fresh demo merchant.
    if (!master.created || (error as Error).name !== 'MasterKeyMismatch') throw error;
    const aside = `${sandboxDir}-unreadable-${Date.now()}`;
    renameSync(sandboxDir, aside);
    options.log.warn('embedded.sandbox_data_set_aside', { reason: 'its master key is no longer in the keychain', aside });
    sandbox = await start();
  }
  options.log.registerSecret(sandbox.keys.test.secret);
  options.log.registerSecret(sandbox.keys.live.secret);
  const config = parseRelayConfig({
    keys: [sandbox.keys.test],
    tills: [{ label: 'embedded-till', tokenHash: hashRelayToken(token) }],
    signedPayload: 'body',
  });
  let relay;
  try {
    relay = await listenPreferring(options.preferredPorts?.relay, (port) =>
      startRelay({ port, host: '127.0.0.1', dataDir: join(options.dataDir, 'embedded', 'relay'), config, log: quiet('relay') }),
    );
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const portOf = (url: string) => Number(new URL(url).port);
  return {
    baseUrl: sandbox.baseUrl,
    merchantId: sandbox.merchantId,
    publicKeyId: sandbox.keys.test.publicId,
    secretKey: sandbox.keys.test.secret,
    relayUrl: relay.url,
    relayToken: token,
    ports: { sandbox: portOf(sandbox.baseUrl), relay: portOf(relay.url) },
    async close() {
      await relay.close();
      await sandbox.close();
    },
  };
}
