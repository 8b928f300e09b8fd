/** The owner's count comes with what is not in it yet: this till's payments still waiting for a result. */
import type { TakingsAwaiting as Awaiting } from '../../../shared/ipc/contract';
import { ghs } from '../format';

export function TakingsAwaiting({ awaiting }: { awaiting: Awaiting }) {
  if (awaiting.count === 0) return null;
  const payments = awaiting.count === 1 ? '1 payment' : `${awaiting.count} payments`;
  const one = awaiting.overdue === 1;
  const overdue = one ? '1 of them has' : `${awaiting.overdue} of them have`;
  return (
    <section className="awaiting" aria-labelledby="awaiting-title" data-testid="awaiting">
      <h2 id="awaiting-title">Still waiting for a result</h2>
      <p data-testid="awaiting-summary">
        {payments} from this till, {ghs(awaiting.amount)} in all: not in the figures here until their results arrive.
      </p>
      {awaiting.overdue > 0 ? (
        <p data-testid="awaiting-overdue">
          {overdue} waited more than {awaiting.overdueAfterMinutes} minutes, longer than the service keeps trying to send a result.{' '}
          {one ? 'Its result most likely never reached the relay: find it' : 'Their results most likely never reached the relay: find them'}{' '}
          in the service's dashboard under Deliveries and replay {one ? 'it' : 'them'}; History flags {one ? 'it' : 'them'} and shows the
          reference. A replayed result lands here by itself. One that cannot be replayed can be settled by hand from History by a manager or
          the owner, with what the dashboard shows.
        </p>
      ) : null}
    </section>
  );
}
