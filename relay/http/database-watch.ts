/**
 * relay_database_up on its own timer: a scrape of /metrics says whether the database answers even when
 * no load balancer reads /healthz.
 */
import type { RelayMetrics } from '../ops/index.js';
import type { RelayStore } from '../store/index.js';

/** How often relay_database_up is checked, whether or not anyone reads /healthz. */
const DATABASE_CHECK_MS = 5_000;

/** Keeps relay_database_up current on its own timer (a store's health is one `SELECT 1`, or a probe of the SQLite file). */
export function watchDatabase(store: Pick<RelayStore, 'health'>, metrics: RelayMetrics, isClosing: () => boolean): NodeJS.Timeout {
  metrics.databaseUp.set(1);
  const timer = setInterval(() => {
    void store.health().then(
      (state) => {
        if (!isClosing()) metrics.databaseUp.set(state.ok ? 1 : 0);
      },
      () => metrics.databaseUp.set(0),
    );
  }, DATABASE_CHECK_MS);
  timer.unref();
  return timer;
}
