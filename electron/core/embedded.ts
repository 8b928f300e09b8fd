/**
 * The embedded TEST default: the core starts the sandbox simulator and a relay on loopback, with the
 * simulator's demo merchant and a relay token of its own (kept in the keychain, only its hash is
 * given to the relay), so a newcomer charges a sandbox payment with nothing to configure. Their data
 * lives in <dataDir>/embedded/{sandbox,relay} (that is the simulator's and relay's own state, not the
 * till's). The same ports are reused on the next start when free, so a result the simulator is still
 * retrying reaches the relay at the address it was given.
 */
import { join } from 'node:path';
import { RELAY_TOKEN } from '../../shared/relay-wire.js';
import type { Logger } from './logger.js';
import type { SecretStore } from './secret-store.js';

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

export async function startEmbedded(options: {
  dataDir: string;
  secrets: SecretStore;
  log: Logger;
  preferredPorts: { sandbox: number; relay: number } | null;
  timeScale?: number;
}): Promise<EmbeddedServices> {
  const [{ startSandbox }, { startRelay }, { parseRelayConfig, createRelayToken, hashRelayToken }] = await Promise.all([
    import('../../sandbox/server.js'),
    import('../../relay/server.js'),
    import('../../relay/config.js'),
  ]);
  const quiet = (source: string) => (line: Record<string, unknown>) => {
    if (line.level === 'error' || line.level === 'warn') options.log.warn(`${source}.log`, { line });
  };

  let token = await options.secrets.get(TOKEN_ACCOUNT);
  if (!token || !RELAY_TOKEN.test(token)) {
    token = createRelayToken().token;
    await options.secrets.set(TOKEN_ACCOUNT, token);
  }
  options.log.registerSecret(token);

  const sandbox = await listenPreferring(options.preferredPorts?.sandbox, (port) =>
    startSandbox({ port, host: '127.0.0.1', dataDir: join(options.dataDir, 'embedded', 'sandbox'), timeScale: options.timeScale ?? 1, signedPayload: 'body', log: quiet('sandbox') }),
  );
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
