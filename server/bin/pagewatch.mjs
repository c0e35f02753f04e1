#!/usr/bin/env node
// `npx pagewatch …` (server/src/cli). Right after `npm install` nothing is built, so the CLI
// runs from the TypeScript sources: tsx as node's loader, and the workspaces' source entry
// points (`@pagewatch/source`). An install without dev dependencies runs the build instead.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

let tsx = null;
try {
  tsx = import.meta.resolve('tsx');
} catch {
  // No dev dependencies: the built CLI.
}
if (!tsx) {
  const cli = await import('../dist/cli/main.js');
  process.exitCode = await cli.main(process.argv.slice(2));
} else {
  const entry = fileURLToPath(new URL('../src/cli/run.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--conditions=@pagewatch/source', '--import', tsx, entry, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
