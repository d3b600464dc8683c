import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { callerPage } from './build/caller-page';
import { precompress } from './build/precompress';

const entry = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  // callerPage builds share.html on its own after this build; precompress runs last of all.
  plugins: [react(), callerPage(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // Every browser we support has modulepreload; the polyfill is one more request.
    modulePreload: { polyfill: false },
    rollupOptions: { input: { main: entry('./index.html') } },
  },
  server: {
    // `vite` in web/ for UI work: API calls and sockets go to `npm start`'s server.
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
});
