import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// The web app's unit tests (pure logic and cache updates; no DOM needed).
// Root vitest.config.ts can list this file in `projects`.
export default defineProject({
  resolve: {
    alias: {
      '@pagewatch/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
