/**
 * The version running and what the till is doing about updates (electron/core/updates), with "Restart to
 * update" once one is downloaded; the core refuses it while a payment waits for its result, and says so.
 */
import { useState } from 'react';
import { call, toCallError } from '../api';
import { useCoreRead } from '../hooks/use-core-read';
import { FormError } from '../components/form-error';

const readUpdates = () => call('updates:status', {});

export function AppUpdate() {
  const { value: status, error, reload } = useCoreRead(readUpdates);
  const [answer, setAnswer] = useState<string | null>(null);

  const restart = async () => {
    setAnswer(null);
    try {
      const result = await call('updates:restart', {});
      if (!result.restarting)
        setAnswer(
          result.reason === 'payment-waiting'
            ? 'A payment is still waiting for its result: restart once it has one.'
            : 'No update is ready yet.',
        );
    } catch (e) {
      setAnswer(toCallError(e).message);
    }
    await reload();
  };

  return (
    <section className="app-update" aria-labelledby="app-update-title">
      <h2 id="app-update-title">Version and updates</h2>
      <FormError message={error ?? answer} />
      {status ? (
        <p data-testid="app-update">
          Version {status.version}. {status.message}
        </p>
      ) : null}
      {status?.phase === 'ready' ? (
        <button type="button" onClick={() => void restart()}>
          Restart to update
        </button>
      ) : null}
    </section>
  );
}
