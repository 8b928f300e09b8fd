import { describe, expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import { createRelayToken } from '../../../../relay/ops/index.js';
import { deliver, get, LIVE_KEY, post, signedHeaders, transaction, webhookBody } from '../helpers.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';

describe('startRelay options', () => {
  it('validates a hand-built config, filling the defaults (64 KiB body cap among them)', async () => {
    const tmp = tempDir('relay');
    const { token, tokenHash } = createRelayToken();
    const relay = await startRelay({ dataDir: tmp, config: { keys: [LIVE_KEY], tills: [{ label: 'a', tokenHash }] }, log: () => {} });
    try {
      expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await deliver(relay.url, transaction('live'), LIVE_KEY)).status).toBe(200);
      const big = webhookBody({ ...transaction('live'), description: 'x'.repeat(65 * 1024) });
      expect((await post(`${relay.url}/v1/webhooks`, big, signedHeaders(big, LIVE_KEY))).status).toBe(413);
      expect((await get(`${relay.url}/v1/transactions`, token)).status).toBe(200);
    } finally {
      await relay.close();
      removeDir(tmp);
    }
  });

  it('refuses a bad config before listening, naming the field', async () => {
    const tmp = tempDir('relay');
    try {
      await expect(
        startRelay({ dataDir: tmp, config: { keys: [{ publicId: 'pk_live_Short', secret: LIVE_KEY.secret }] }, log: () => {} }),
      ).rejects.toThrow(/keys\.0\.publicId/);
    } finally {
      removeDir(tmp);
    }
  });
});
