/**
 * Test page (never part of the app): the till's real ErrorBoundary and root error reporter, with the
 * app's styles, around a screen that throws while rendering once the test opens it. The error's
 * message carries secret-looking data so the test can check it never reaches the console or the page.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary, logRenderError } from '../../../renderer/src/error-boundary';
import '../../../renderer/src/styles/base.css';

const SECRET_IN_ERROR = 'sk_test_BoundaryLeakCheck0123456789 customer 0241234567';

function BrokenScreen(): never {
  throw new Error(SECRET_IN_ERROR);
}

function ChargeScreen() {
  const [amount, setAmount] = useState('');
  return (
    <section>
      <h1 className="screen-title">Charge</h1>
      <label htmlFor="amount">Amount</label>
      <input id="amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
    </section>
  );
}

function TestPage() {
  const [screen, setScreen] = useState<'charge' | 'broken'>('charge');
  return (
    <div className="app env-test">
      <nav aria-label="Screens">
        <button type="button" className="secondary" onClick={() => setScreen('broken')}>
          Open the broken screen
        </button>
      </nav>
      <main className="main">
        <ErrorBoundary resetKey={screen} onReset={() => setScreen('charge')}>
          {screen === 'broken' ? <BrokenScreen /> : <ChargeScreen />}
        </ErrorBoundary>
      </main>
    </div>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root, { onCaughtError: logRenderError, onUncaughtError: logRenderError }).render(
    <StrictMode>
      <TestPage />
    </StrictMode>,
  );
}
