/** Serves the built renderer as `app://momo/…` (a standard, secure scheme) instead of file://. */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { CONTENT_SECURITY_POLICY } from './csp.js';
import { contentTypeOf, resolveAppPath } from './protocol-path.js';
import { APP_SCHEME } from './sender-check.js';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppPath(request.url, rendererDir);
    if (!file || request.method !== 'GET') return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': contentTypeOf(file),
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
