import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contract = fileURLToPath(new URL('../contract/src/index.ts', import.meta.url));
// Where `vite` and `vite preview` send /api; the server's default port unless told otherwise.
const api = process.env.PAGEWATCH_API_URL ?? 'http://127.0.0.1:3000';
const proxy = { '/api': { target: api, changeOrigin: false } };

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Build the contract from source so the SPA never depends on a stale contract/dist.
    alias: { '@pagewatch/contract': contract },
  },
  server: {
    port: 5173,
    proxy,
  },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No public source maps (docs/security.md): `vite` in development has its own.
    sourcemap: false,
    reportCompressedSize: true,
  },
});
