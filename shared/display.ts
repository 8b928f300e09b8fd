/** How the till shows a network and an instant to people (screens and printed receipts alike). */
import type { Network } from './domain.js';
import { NETWORK_LABELS } from './phone.js';

export function networkLabel(network: string): string {
  if (network === 'SANDBOX') return 'Sandbox (test)';
  return NETWORK_LABELS[network as Network] ?? network;
}

/** "22 Nov 2026, 15:40:12" in the till's time zone; "—" when there is no instant. */
export function dateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(d);
}
