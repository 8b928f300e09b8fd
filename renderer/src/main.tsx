import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { AnnouncerProvider } from './components/announcer';
import './styles/app.css';
import './styles/print.css';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AnnouncerProvider>
        <App />
      </AnnouncerProvider>
    </StrictMode>,
  );
}
