/** Things a test opens (pools, relays, stores) and wants closed after it, last opened first. */
import { afterEach } from 'vitest';

export type Closable = { close(): Promise<void> };

/** A list to push each opened thing on; after each test it is emptied, closing them in reverse order. */
export function closeAfterEach(): Closable[] {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return open;
}
