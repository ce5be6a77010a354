// first: zod must know it may not compile code before any schema is built (the CSP forbids eval)
import './jitless';
import { languageReady } from './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

const root = document.getElementById('root');
if (!root) {
  throw new Error('#root is missing from index.html');
}
// the stored language's texts first (English is in the bundle: a first visit does not wait)
void languageReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
