/** Always visible: TEST/LIVE, the relay connection and the till's name. */
import type { AppStatus } from '../hooks/use-app-status';
import './components.css';

const RELAY_TEXT = {
  connected: 'Results: connected',
  reconnecting: 'Results: reconnecting…',
  offline: 'Results: offline',
} as const;

export function StatusBar({ status }: { status: AppStatus | null }) {
  const env = status?.environment ?? 'test';
  const relay = status?.relayState ?? 'offline';
  return (
    <div className="status-bar">
      <span className={`env-badge env-${env}`} data-testid="env-badge">
        {env === 'live' ? 'LIVE' : 'TEST'}
      </span>
      <span className={`relay relay-${relay}`} data-testid="relay-state" title="Connection that brings payment results">
        <span className="relay-dot" aria-hidden="true" />
        {RELAY_TEXT[relay]}
      </span>
      <span className="till-name" data-testid="till-name">
        {status ? status.tillName : 'Starting…'}
      </span>
    </div>
  );
}
