import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { '@pagewatch/contract': path.join(root, 'contract/src/index.ts') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      'web/vitest.config.ts',
      {
        resolve: { alias },
        test: {
          name: 'server',
          root,
          include: ['contract/test/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          root,
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
