/**
 * The wallet names the core itself looked up (payments:resolveAccount), kept a short while per environment,
 * number and network. A charge stores the name found here, never one the renderer sends:
 * a name that was not looked up, or looked up too long ago, is stored as empty.
 */
import type { Environment } from '../../../shared/domain.js';
import { plainTextOrNull } from '../../../shared/outside-text.js';

/** How long a looked-up name stands for its number: long enough for a sale at the counter, short enough to go stale. */
export const ACCOUNT_NAME_TTL_MS = 10 * 60_000;
/** The most names kept at once (the oldest go first): a till looks up a handful an hour. */
const MAX_NAMES = 500;

export class AccountNames {
  private readonly names = new Map<string, { name: string; at: number }>();

  constructor(private readonly now: () => number) {}

  /** What the service said for this number (null: no name, which forgets an earlier one). */
  remember(environment: Environment, msisdn: string, network: string, name: string | null): void {
    const key = `${environment}|${msisdn}|${network}`;
    this.names.delete(key);
    const plain = plainTextOrNull(name);
    if (plain === null) return;
    this.names.set(key, { name: plain, at: this.now() });
    if (this.names.size > MAX_NAMES) this.names.delete(this.names.keys().next().value as string);
  }

  /** The name looked up for this number and network within ACCOUNT_NAME_TTL_MS, or null. */
  nameFor(environment: Environment, msisdn: string, network: string): string | null {
    const found = this.names.get(`${environment}|${msisdn}|${network}`);
    return found && this.now() - found.at <= ACCOUNT_NAME_TTL_MS ? found.name : null;
  }
}
