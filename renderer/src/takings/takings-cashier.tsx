/**
 * Takings for one cashier: the people who started the range's payments (and "Nobody signed in" when some
 * were), shown once any payment names a cashier. The chosen person's figures replace everyone's on the screen.
 */
import type { TakingsReport } from '../../../shared/ipc/contract';
import { CashierPicker, NOBODY_SIGNED_IN, type CashierChoice } from '../components/cashier-picker';

type Props = { report: TakingsReport; value: CashierChoice; onChange: (c: CashierChoice) => void };

export function TakingsCashier({ report, value, onChange }: Props) {
  if (value === undefined && !report.byCashier.some((r) => r.cashierId !== null)) return null;
  const options = report.byCashier.map((r) => ({ id: r.cashierId, name: r.cashier ?? NOBODY_SIGNED_IN }));
  const chosen = options.find((o) => o.id === value);
  const whose = value === null ? 'of payments started with nobody signed in' : `${chosen?.name ?? 'this person'}'s`;
  return (
    <div className="takings-cashier">
      <CashierPicker id="takings-cashier" options={options} value={value} onChange={onChange} />
      {value !== undefined ? (
        <p className="muted" data-testid="takings-cashier-note">
          Every figure and export below is {whose} only.
        </p>
      ) : null}
    </div>
  );
}
