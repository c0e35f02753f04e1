#!/usr/bin/env node
// `npx pagewatch …` (server/src/cli). Right after `npm install` nothing is built, so the
// sources run through tsx; an install without dev dependencies runs the build instead.
let cli;
try {
  const { tsImport } = await import('tsx/esm/api');
  cli = await tsImport('../src/cli/main.ts', import.meta.url);
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('tsx')) throw err;
  cli = await import('../dist/cli/main.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
