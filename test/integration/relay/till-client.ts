/** The till's real relay client, on a till database of its own, for tests of what a till reads from a relay. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RelayEvent } from '../../../shared/relay-wire.js';
import { openDatabase } from '../../../electron/core/storage/database.js';
import { createLogger } from '../../../electron/core/logger.js';
import { RelayClient } from '../../../electron/core/relay-link/relay-client.js';

/**
 * A till reading the test environment from `relay` with `token`: `client()` makes a client that keeps its
 * cursor in the till's database (a second one resumes where the first stopped), `got` holds every event it
 * was given and `lines` every line it logged. `close()` removes the till's folder.
 */
export function tillRelayClient(relay: () => { url: string }, token: string) {
  const dir = mkdtempSync(join(tmpdir(), 'momo-relay-till-'));
  const db = openDatabase(join(dir, 'till.db'));
  const lines: Array<Record<string, unknown>> = [];
  const got: RelayEvent[] = [];
  return {
    got,
    lines,
    client: () =>
      new RelayClient({
        environment: 'test',
        relayUrl: relay().url,
        token,
        db,
        log: createLogger({ dataDir: dir, now: Date.now, sink: (l) => lines.push(l) }),
        onEvent: (e) => got.push(e),
        onState: () => {},
        initialBackoffMs: 20,
        maxBackoffMs: 100,
      }),
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
