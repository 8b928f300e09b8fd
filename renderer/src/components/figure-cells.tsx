import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';

/** One group's figures as table cells: payments, paid, the not paid when `failed` is asked for, gross, fees, net. */
export function FigureCells({ t, failed = false }: { t: TakingsTotals; failed?: boolean }) {
  return (
    <>
      <td className="num">{t.count}</td>
      <td className="num">{t.succeeded}</td>
      {failed ? <td className="num">{t.failed}</td> : null}
      <td className="num">{ghs(t.gross)}</td>
      <td className="num">{ghs(t.fees)}</td>
      <td className="num">{ghs(t.net)}</td>
    </>
  );
}
