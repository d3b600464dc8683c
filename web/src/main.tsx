import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './accessibility.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { restoreSession } from './app/session';

// A stored session is checked against the contract before the first render; a visitor who is
// not signed in renders at once, without it.
void restoreSession().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
