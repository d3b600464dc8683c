import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    // `vite` in web/ for UI work: API calls and sockets go to `npm start`'s server.
    proxy: { '/api': { target: 'http://localhost:3000', ws: true } },
  },
});
