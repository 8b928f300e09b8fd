/**
 * Every command block and config an operator copies from the relay's documents (and the README's) is run by a
 * test as written, or is skipped here by name, saying why. Each fenced block has one entry, found by its document
 * and first line: a block added without one fails the first test, and an entry's test must still read the block
 * (the words it finds the block by are in its source). The entries that need nothing but this file (the config
 * file) are checked here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRelayConfig } from '../../../relay/ops/index.js';
import { readDoc } from '../../support/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = ['relay/docs/operator-guide.md', 'relay/docs/postgresql.md', 'relay/docs/proxies.md', 'relay/docs/http-api.md', 'README.md'];

/** Run by `test` (a path from the root), which finds the block by `by`; or skipped, saying why. */
type Entry = { test: string; by: string } | { skip: string } | { here: true };

const ENTRIES: Record<string, Entry> = {
  // relay/docs/operator-guide.md
  'relay/docs/operator-guide.md | npm ci': { test: 'test/integration/relay/cli/install.test.ts', by: '## Installing on a server' },
  'relay/docs/operator-guide.md | apt-get update': {
    skip: "installs the server's own packages as root on Debian 12 (this machine's are installed by .ci/run, not by this block)",
  },
  'relay/docs/operator-guide.md | useradd --system --home-dir /var/lib/momo-relay --create-home --shell /usr/sbin/nologin momo-relay': {
    test: 'test/integration/relay/cli/install.test.ts',
    by: 'On the server (',
  },
  'relay/docs/operator-guide.md | {': { here: true },
  'relay/docs/operator-guide.md | # /etc/systemd/system/momo-relay.service': {
    test: 'test/integration/relay/cli/systemd-unit.test.ts',
    by: 'A systemd unit per instance',
  },
  "relay/docs/operator-guide.md | sed -i -e 's/(PostgreSQL)/(one shop, SQLite)/' -e '/^EnvironmentFile=/d' -e '/^Environment=/d' \\": {
    test: 'test/integration/relay/cli/systemd-unit.test.ts',
    by: '### One shop (SQLite) under systemd',
  },
  'relay/docs/operator-guide.md | momo-relay log-id new --data /var/lib/momo-relay    # relay stopped; prints the new id': {
    test: 'test/integration/relay/cli/cli.test.ts',
    by: '## Log identity',
  },
  // relay/docs/postgresql.md
  "relay/docs/postgresql.md | runuser -u postgres -- psql -v ON_ERROR_STOP=1 <<'SQL'": {
    test: 'test/integration/relay/cli/pg-bootstrap.test.ts',
    by: '## Database bootstrap',
  },
  'relay/docs/postgresql.md | set -a; . /etc/momo-relay/relay.env; set +a                # RELAY_DATABASE_URL': {
    test: 'test/integration/relay/cli/install.test.ts',
    by: '## Setting up',
  },
  'relay/docs/postgresql.md | set -euo pipefail': {
    test: 'test/integration/relay/cli/master-key-rotation.test.ts',
    by: '## Rotating the master key',
  },
  'relay/docs/postgresql.md | # runbook: import': {
    test: 'test/integration/relay/store/pg/restore-runbook.test.ts',
    by: "runbook('import')",
  },
  'relay/docs/postgresql.md | # runbook: upgrade': { test: 'test/integration/relay/cli/rolling-upgrade.test.ts', by: 'runbook: upgrade' },
  'relay/docs/postgresql.md | # runbook: backup': {
    test: 'test/integration/relay/store/pg/restore-runbook.test.ts',
    by: "runbook('backup')",
  },
  'relay/docs/postgresql.md | # runbook: restore': {
    test: 'test/integration/relay/store/pg/restore-runbook.test.ts',
    by: "runbook('restore')",
  },
  'relay/docs/postgresql.md | scrape_configs:': {
    test: 'test/integration/relay/cli/systemd-unit.test.ts',
    by: "Scrape every instance's admin listener",
  },
  // relay/docs/proxies.md: proxy-configs runs every nginx and caddyfile block (docBlocks)
  'relay/docs/proxies.md | relay.example.com {': {
    test: 'test/integration/relay/http/proxy-configs.test.ts',
    by: 'docBlocks(kind.language)',
  },
  'relay/docs/proxies.md | server {': { test: 'test/integration/relay/http/proxy-configs.test.ts', by: 'docBlocks(kind.language)' },
  'relay/docs/proxies.md | # fail_timeout=1s: an instance nginx could not reach is left out for 1 s (10 s by default), so that in a rolling':
    {
      test: 'test/integration/relay/http/proxy-configs.test.ts',
      by: 'docBlocks(kind.language)',
    },
  "relay/docs/proxies.md | sed -e 's/--host 10.0.0.11 --port 8787 --admin-port 9787/--host 127.0.0.1 --port %i --admin-port 1%i/' /etc/systemd/system/momo-relay.service > /etc/systemd/system/momo-relay@.service":
    {
      test: 'test/integration/relay/cli/systemd-unit.test.ts',
      by: '## Two instances on one machine',
    },
  'relay/docs/proxies.md | mkdir -p /etc/ssl/momo-relay': {
    test: 'test/integration/relay/http/trial-cert.test.ts',
    by: '## A certificate for a trial',
  },
  "relay/docs/proxies.md | sed -i 's#^relay.example.com {$#&\\n\\ttls /etc/ssl/momo-relay/fullchain.pem /etc/ssl/momo-relay/privkey.pem#' /etc/caddy/Caddyfile":
    { test: 'test/integration/relay/http/proxy-port-443.test.ts', by: 'With Caddy, make the same certificate' },
  // relay/docs/http-api.md
  'relay/docs/http-api.md | $relay owner-link list --merchant MCH_ama --json': {
    test: 'test/integration/relay/cli/owner-link-cli.test.ts',
    by: '### Listing and turning off phone links',
  },
  // README.md
  'README.md | npm install && npm start   # the till, on its embedded sandbox: take a sandbox payment with nothing to configure': {
    skip: "npm install is the project's own install (CI runs it first, as npm ci); npm start is run by test/integration/cli/npm-start-without-electron.test.ts",
  },
  'README.md | One shop (default)                                      Many shops (hosted by a vendor, reseller or head office)': {
    skip: 'a drawing, not a command',
  },
};

/** Each fenced block of the documents, named by its document and first line. */
function blocks(): Array<{ key: string; body: string }> {
  return DOCS.flatMap((path) =>
    [...readDoc(path).text.matchAll(/```[^\n]*\n([\s\S]*?)\n```/g)].map((m) => ({ key: `${path} | ${m[1]!.split('\n')[0]}`, body: m[1]! })),
  );
}

describe("the operator's documents, block by block", () => {
  it('every fenced block has an entry, and every entry a block', () => {
    const keys = [...new Set(blocks().map((b) => b.key))];
    expect(
      keys.filter((k) => !(k in ENTRIES)),
      'blocks with no entry: run each by a test, or skip it here saying why',
    ).toEqual([]);
    expect(
      Object.keys(ENTRIES).filter((k) => !keys.includes(k)),
      'entries for blocks no longer there',
    ).toEqual([]);
  });

  for (const [key, entry] of Object.entries(ENTRIES)) {
    if ('skip' in entry) it.skip(`${key}: ${entry.skip}`, () => undefined);
    else if ('test' in entry)
      it(`${key}: run by ${entry.test}`, () => {
        expect(existsSync(ROOT + entry.test), entry.test).toBe(true);
        expect(readFileSync(ROOT + entry.test, 'utf8')).toContain(entry.by);
      });
  }

  it("operator-guide.md's config file, its placeholders filled in, is a valid config; the error it quotes is the one given", () => {
    const block = blocks().find((b) => b.key === 'relay/docs/operator-guide.md | {')!.body;
    const filled = block
      .replace('pk_live_…', 'pk_live_operator1')
      .replace('sk_live_…', 'sk_live_' + 'a'.repeat(32))
      .replace('pk_test_…', 'pk_test_operator1')
      .replace('sk_test_…', 'sk_test_' + 'b'.repeat(32))
      .replace('sha256:<hex of SHA-256 of the token>', 'sha256:' + 'c'.repeat(64));
    const config = parseRelayConfig(JSON.parse(filled));
    expect(config.tills.map((t) => t.label)).toEqual(['front-counter']);
    expect(config.signedPayload).toBe('body');
    const mixed = JSON.parse(filled) as { keys: Array<{ secret: string }> };
    mixed.keys[0]!.secret = 'sk_test_' + 'd'.repeat(32);
    expect(() => parseRelayConfig(mixed)).toThrow('keys.0.secret: is a test key but publicId is a live key');
    expect(readDoc('relay/docs/operator-guide.md').text).toContain('`keys.0.secret: is a test key but publicId is a live key`');
  });
});
