import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { AnnouncerProvider } from './components/announcer';
import { ErrorBoundary, logRenderError } from './error-boundary';
import './styles/app.css';
import './styles/print.css';
import './styles/shifts.css';

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
