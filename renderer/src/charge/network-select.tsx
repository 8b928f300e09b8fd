/** The wallet's network: detected from the prefix, changeable by the cashier. */
import { NETWORKS, type Network } from '../../../shared/domain';
import { NETWORK_LABELS } from '../../../shared/phone';
import { FieldError } from '../components/field-error';

type Props = {
  network: Network | '';
  chosen: boolean;
  error: string | undefined;
  disabled: boolean;
  onChange: (network: Network) => void;
};

export function NetworkSelect({ network, chosen, error, disabled, onChange }: Props) {
  return (
    <div className="field network-field">
      <label htmlFor="network">Network {network && !chosen ? '(detected)' : ''}</label>
      <select
        id="network"
        value={network}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'network-error' : undefined}
        onChange={(e) => onChange(e.target.value as Network)}
      >
        <option value="" disabled>
          Choose the network
        </option>
        {NETWORKS.map((n) => (
          <option key={n} value={n}>
            {NETWORK_LABELS[n]}
          </option>
        ))}
      </select>
      <FieldError id="network-error" message={error} />
    </div>
  );
}
