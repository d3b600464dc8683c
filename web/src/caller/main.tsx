/** @jsxImportSource preact */
import { render } from 'preact';
import { CallerApp } from './CallerApp';

// The caller's page: its own entry (share.html), a few kilobytes, no console code.
const root = document.getElementById('app')!;
root.textContent = '';
render(<CallerApp search={window.location.search} />, root);
