// The base (tokens, reset, shared primitives) before anything else: each domain's own stylesheet,
// imported by its code (e.g. history/history-screen.tsx imports ./history.css), comes after it.
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { AnnouncerProvider } from './components/announcer';
import { ErrorBoundary, logRenderError } from './error-boundary';

const root = document.getElementById('root');
if (root) {
  // A render error is logged by its class name and component stack only (its message could hold data).
  createRoot(root, { onCaughtError: logRenderError, onUncaughtError: logRenderError }).render(
    <StrictMode>
      <AnnouncerProvider>
        {/* The last line of defence (a failure in the header itself): resetting remounts the till on Charge. */}
        <ErrorBoundary>
          <App />
        </ErrorBoundary>
      </AnnouncerProvider>
    </StrictMode>,
  );
}
