import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './vitest.sequencer.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const alias = { '@pagewatch/contract': path.join(root, 'contract/src/index.ts') };
// Most test files wait on timers, sockets and child processes rather than compute, so one more
// worker than cores keeps the cores busy (vitest's default, cores − 1, ran a 2-core machine's
// suite one file at a time). Browser tests are heavier: two at a time, or half the cores.
const cores = os.availableParallelism();
const workers = cores + 1;
const browserWorkers = Math.max(2, Math.floor(cores / 2));

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: workers,
    sequence: { sequencer: LongestFirstSequencer },
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
          // After the server and web files (their own group), a few at a time: each file starts
          // its own app on its own port and data directory and writes screenshots of its own.
          maxWorkers: browserWorkers,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
