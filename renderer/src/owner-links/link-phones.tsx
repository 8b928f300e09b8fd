/**
 * The phones that opened one link (each has its own credential on the relay), with a way to turn off one
 * phone (a lost or sold one) while the link's other phones keep working.
 */
import type { OwnerLinkView } from '../../../shared/ipc/contract';

type Device = OwnerLinkView['devices'][number];
const when = (iso: string) => new Date(iso).toLocaleString();

export function LinkPhones({ link, onOff }: { link: OwnerLinkView; onOff: (link: OwnerLinkView, device: Device) => void }) {
  if (link.devices.length === 0) return <p className="phone-link-devices-none">Not opened on a phone yet.</p>;
  return (
    <ul className="phone-link-devices" aria-label={`Phones that opened ${link.label}`}>
      {link.devices.map((d) => (
        <li key={d.id} data-testid="phone-link-device">
          <bdi>{d.name}</bdi>: first opened {when(d.createdAt)}, last seen {when(d.lastSeenAt)}{' '}
          {d.revokedAt || link.revokedAt ? (
            <span>(turned off)</span>
          ) : (
            <button
              type="button"
              className="secondary small"
              onClick={() => onOff(link, d)}
              aria-label={`Turn off ${d.name} on ${link.label}`}
            >
              Turn off this phone
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
