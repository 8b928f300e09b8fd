/**
 * The Prometheus exposition, served on the admin listener only (never the public port, which the
 * internet reaches through the proxy): the gauges read at scrape time are set first.
 */
import type { ServerResponse } from 'node:http';
import { sendError } from '../../shared/http-util.js';
import type { RelayMetrics } from '../ops/index.js';
import type { RelayStore } from '../store/index.js';
import type { EventStreams } from './tills/index.js';

export type MetricsPage = (res: ServerResponse) => void;

export function metricsPage(store: RelayStore, streams: Pick<EventStreams, 'countsByMerchant'>, metrics: RelayMetrics): MetricsPage {
  async function refresh(): Promise<void> {
    metrics.merchantStreams.reset();
    const { tenancy } = store;
    if (tenancy.merchants === 'one') return;
    metrics.unreadableKeys.set(tenancy.unreadableKeys().length);
    for (const [merchant, n] of streams.countsByMerchant()) metrics.merchantStreams.set(n, { merchant });
    // Every instance commits into the same logs: the highest number is the database's, not this instance's.
    metrics.lastSeq.set(await tenancy.highestSeq());
  }
  return (res) => {
    void refresh()
      .then(() => metrics.render())
      .then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          res.end(text);
        },
        () => sendError(res, 503, 'INTERNAL', 'Could not collect the metrics (is the database reachable?)', { 'retry-after': '2' }),
      );
  };
}
