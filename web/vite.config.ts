import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const contract = fileURLToPath(new URL('../contract/src/index.ts', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Build the contract from source so the SPA never depends on a stale contract/dist.
    alias: { '@pagewatch/contract': contract },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: true,
  },
});
