/**
 * The owner's phone view, wired as one piece into the server: the page (page.ts), the tills' link
 * management (owner-links-api.ts), the viewer's read-only API (viewer-api.ts) and its live streams
 * (streams.ts), woken by every commit that accepted a new event.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogFn, RelayConfig, RelayMetrics, WarningSummary } from '../../ops/index.js';
import type { CommitReport, RelayStore } from '../../store/index.js';
import { createOwnerLinksApi, OWNER_LINK_ROUTES } from './owner-links-api.js';
import { handleOwnerPage, OWNER_PAGE_ROUTES } from './page.js';
import { OwnerStreams } from './streams.js';
import { createOwnerViewerApi, OWNER_VIEWER_ROUTES } from './viewer-api.js';

/** Each route of the page, the tills' links and the phones' reads, as `METHOD /path` (relay/docs/http-api.md lists every one). */
export const OWNER_ROUTES: readonly string[] = [...OWNER_PAGE_ROUTES, ...OWNER_LINK_ROUTES, ...OWNER_VIEWER_ROUTES];

export type OwnerView = {
  streams: OwnerStreams;
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean;
  /** Wraps the commit listener: pages of the merchants with accepted events are woken too. */
  onCommitted(inner: (report: CommitReport) => void): (report: CommitReport) => void;
};

export function createOwnerView(deps: {
  store: RelayStore;
  log: LogFn;
  now: () => number;
  checkMs?: number;
  trustedProxies?: () => readonly string[];
  bodyTimeoutMs?: () => number;
  warnings?: WarningSummary;
  /** The shares and pools of relay/ops/shares.ts (the owner page's among them), read at each request (they change on reload). */
  getConfig: () => RelayConfig;
  metrics: RelayMetrics;
}): OwnerView {
  const { getConfig, metrics } = deps;
  const streams = new OwnerStreams(deps.store, {
    checkMs: deps.checkMs ?? 2_000,
    heartbeatMs: 20_000,
    limits: getConfig,
    log: deps.log,
    onCount: (merchant, open) => metrics.merchantOwnerStreams.set(open, { merchant }),
  });
  const viewer = createOwnerViewerApi({
    store: deps.store,
    streams,
    log: deps.log,
    now: deps.now,
    trustedProxies: deps.trustedProxies ?? (() => []),
    bodyTimeoutMs: deps.bodyTimeoutMs ?? (() => 5_000),
    warnings: deps.warnings,
    getConfig,
    metrics,
  });
  const onRevoked = (id: string) => {
    viewer.forget();
    streams.revoked(id);
  };
  const onDeviceRevoked = (id: string) => {
    viewer.forget();
    streams.deviceRevoked(id);
  };
  const links = createOwnerLinksApi({
    store: deps.store,
    onRevoked,
    onDeviceRevoked,
    onChanged: () => viewer.forget(),
    log: deps.log,
    now: deps.now,
    getConfig,
    metrics,
  });
  return {
    streams,
    handle: (req, res, url) => handleOwnerPage(req, res, url) || links(req, res, url) || viewer.handle(req, res, url),
    onCommitted: (inner) => (report) => {
      inner(report);
      const merchants = new Set(report.filter((r) => r.outcome.kind === 'accepted').map((r) => r.delivery.merchantId));
      for (const m of merchants) streams.advanced(m);
    },
  };
}
