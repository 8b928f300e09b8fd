/** Front door of owner-links/ (what other folders may use): OwnerLinks, a section of Settings. */
/**
 * Settings, "Takings on your phone": the owner makes a link for a phone (a label such as "Auntie Efua's
 * phone"), shown once as a QR code and as text: an invitation one phone can use once; the list shows each
 * link's label, environment, when it was made and last used, the phones that opened it, and turns a link or
 * one of its phones off at once, or makes a link a new invitation for another phone.
 */
import { useState, type FormEvent } from 'react';
import { call, errorMessage } from '../api';
import type { OwnerLinkView } from '../../../shared/ipc/contract';
import { useCoreRead } from '../hooks/use-core-read';
import { QrCode } from '../printing/qr-code';
import { LinkPhones } from './link-phones';
import './owner-links.css';

const readLinks = () => call('owner-links:list', {});
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

type Device = OwnerLinkView['devices'][number];
type RowActions = {
  onOff: (link: OwnerLinkView) => void;
  onInvite: (link: OwnerLinkView) => void;
  onPhoneOff: (link: OwnerLinkView, device: Device) => void;
};

function LinkRow({ link, onOff, onInvite, onPhoneOff }: { link: OwnerLinkView } & RowActions) {
  return (
    <tr data-testid="phone-link-row">
      <td>
        <bdi>{link.label}</bdi>
        <LinkPhones link={link} onOff={onPhoneOff} />
      </td>
      <td>{link.environment === 'test' ? 'TEST' : 'LIVE'}</td>
      <td>{when(link.createdAt)}</td>
      <td>{when(link.lastUsedAt)}</td>
      <td>
        {link.revokedAt ? (
          <span>Turned off</span>
        ) : (
          <>
            <button type="button" className="secondary" onClick={() => onInvite(link)} aria-label={`New invitation for ${link.label}`}>
              New invitation
            </button>{' '}
            <button type="button" className="secondary" onClick={() => onOff(link)} aria-label={`Turn off ${link.label}`}>
              Turn off
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

function MadeLink({ url, label }: { url: string; label: string }) {
  return (
    <div className="phone-link-made" data-testid="phone-link-made">
      <p>
        Scan this with {label}, or send the link below. It is shown only now, and opens on one phone, once, within 15 minutes: after that
        the phone keeps its own access.
      </p>
      <QrCode value={url} label={`QR code of the link for ${label}`} />
      <p>
        <input className="phone-link-url" readOnly aria-label="The link" value={url} data-testid="phone-link-url" />
      </p>
    </div>
  );
}

function LinksTable({ links, ...actions }: { links: OwnerLinkView[] } & RowActions) {
  return (
    <table className="phone-links-table">
      <thead>
        <tr>
          <th scope="col">Phone</th>
          <th scope="col">Mode</th>
          <th scope="col">Made</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">New invitation or turn off</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {links.map((l) => (
          <LinkRow key={l.id} link={l} {...actions} />
        ))}
      </tbody>
    </table>
  );
}

export function OwnerLinks({ environment }: { environment: 'test' | 'live' }) {
  const { value, error, reload } = useCoreRead(readLinks);
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<{ url: string; label: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  /** Runs one action on the links; a refusal is shown under the form. */
  const attempt = (work: () => Promise<void>) => void work().catch((err: unknown) => setMessage({ ok: false, text: errorMessage(err) }));
  const make = (e: FormEvent) => {
    e.preventDefault();
    attempt(async () => {
      const answer = await call('owner-links:create', { label: label.trim(), environment });
      setMade({ url: answer.url, label: answer.link.label });
      setLabel('');
      setMessage(null);
      void reload();
    });
  };
  const turnOff = (link: OwnerLinkView) =>
    attempt(async () => {
      await call('owner-links:revoke', { id: link.id, environment: link.environment });
      setMessage({ ok: true, text: `${link.label}: turned off.` });
      setMade(null);
      void reload();
    });
  // Another phone for a link that is on (or the same phone after it lost its access): its earlier phones stay in.
  const invite = (link: OwnerLinkView) =>
    attempt(async () => {
      const answer = await call('owner-links:invite', { id: link.id, environment: link.environment });
      setMade({ url: answer.url, label: link.label });
      setMessage(null);
    });
  const turnPhoneOff = (link: OwnerLinkView, device: Device) =>
    attempt(async () => {
      await call('owner-links:revokeDevice', { id: link.id, deviceId: device.id, environment: link.environment });
      setMessage({ ok: true, text: `${device.name} on ${link.label}: turned off.` });
      void reload();
    });

  return (
    <section className="phone-links" aria-labelledby="phone-links-title">
      <h2 id="phone-links-title">Takings on your phone</h2>
      <p>
        Make a link for your phone to see today&apos;s takings from every till, live, wherever you are. Each link opens on one phone: turn
        that phone, or the whole link, off here if a phone is lost.
      </p>
      <form onSubmit={make} className="phone-links-form">
        <div className="field">
          <label htmlFor="phone-link-label">Whose phone</label>
          <input
            id="phone-link-label"
            maxLength={60}
            placeholder="Auntie Efua's phone"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <button type="submit" className="primary">
          Make a {environment === 'test' ? 'TEST' : 'LIVE'} link
        </button>
      </form>
      {made ? <MadeLink url={made.url} label={made.label} /> : null}
      {message ? (
        <p className={message.ok ? 'ok-text' : 'form-error'} role="status">
          {message.text}
        </p>
      ) : null}
      {error ? <p className="form-error">{error}</p> : null}
      {value?.problems.map((p) => (
        <p key={p} className="form-error">
          {p}
        </p>
      ))}
      {value && value.links.length > 0 ? (
        <LinksTable links={value.links} onOff={turnOff} onInvite={invite} onPhoneOff={turnPhoneOff} />
      ) : null}
    </section>
  );
}
