/** TEST mode must be impossible to miss: no goods handed over for a sandbox payment. */
import './components.css';

export function SandboxBanner() {
  return (
    <div className="sandbox-banner" data-testid="sandbox-banner">
      TEST MODE — sandbox payments, no real money moves. Do not hand over goods.
    </div>
  );
}
