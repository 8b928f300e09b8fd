/** A malformed request target or percent-encoding gets 400 from the simulator, not 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { rawExchange } from '../../support/raw-socket.js';
import { api, quietLog } from './helpers.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.01, log: quietLog });
});
afterAll(() => sandbox.close());

describe('sandbox: malformed URLs', () => {
  it('answers 400 to a badly percent-encoded dashboard path', async () => {
    const res = await api(sandbox.baseUrl, '/dashboard/api/merchants/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('answers 400 to a request target that is not a URL', async () => {
    const answer = await rawExchange(sandbox.baseUrl, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });
});
