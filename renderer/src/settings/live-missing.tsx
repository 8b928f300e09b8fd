/**
 * What LIVE still lacks, as the core's own check finds it, named as the LIVE form below names its boxes.
 * Shown instead of the PIN and the real-money warning: nothing is asked while LIVE cannot be switched on.
 */
import { useRef } from 'react';
import type { EnvironmentSetting } from '../../../shared/ipc/contract';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';

const SETTING_LABELS: Record<EnvironmentSetting, string> = {
  baseUrl: 'Service address (base URL)',
  merchantId: 'Merchant ID',
  publicKeyId: 'Public key id',
  secretKey: 'Secret key',
  relayUrl: 'Relay address',
  relayToken: 'Relay token',
};

type Props = { missing: EnvironmentSetting[]; onClose: () => void };

export function LiveMissing({ missing, onClose }: Props) {
  const title = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(title);
  // The first missing box of the LIVE form (focusing it scrolls it into view).
  const fillIn = () => document.getElementById(`live-${missing[0]}`)?.focus();
  return (
    <div className="missing-box" role="group" aria-labelledby="live-missing-title" data-testid="live-missing">
      <h3 id="live-missing-title" ref={title} tabIndex={-1} data-testid="live-missing-title">
        LIVE cannot be switched on yet
      </h3>
      <p>
        These LIVE settings are missing. Fill them in under “LIVE environment” below and save; then switch. Until then the till stays in
        TEST.
      </p>
      <ul className="missing-list">
        {missing.map((setting) => (
          <li key={setting} data-testid="live-missing-item">
            {SETTING_LABELS[setting]}
          </li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" className="primary" onClick={fillIn}>
          Fill in the LIVE settings
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
