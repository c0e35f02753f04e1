// `npm test`: the whole suite — unit, integration on every engine available, and browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureChromium } from './chromium.mjs';
import { ensurePromtool } from './promtool.mjs';
import { summarize } from './report.mjs';

const step = (title) => console.log(`\n── ${title}`);
const run = (cmd, args, env = process.env) =>
  spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

step('Chromium for browser tests');
const chromium = ensureChromium();
console.log(`using ${chromium}`);

step('promtool for the /metrics test');
const promtool = ensurePromtool();
console.log(`using ${promtool}`);

step('Building the web app the browser tests load');
if (run('npm', ['run', 'build', '--silent', '-w', 'web']) !== 0) process.exit(1);

step('Databases');
if (process.env.PAGEWATCH_TEST_POSTGRES_URL) {
  console.log(
    `SQLite and PostgreSQL (${process.env.PAGEWATCH_TEST_POSTGRES_URL.replace(/\/\/[^@]*@/, '//…@')})`,
  );
} else {
  console.log(
    'SQLite only. The PostgreSQL suite was NOT run: set PAGEWATCH_TEST_POSTGRES_URL=postgres://user@host:5432/db to run it.',
  );
}

step('Tests');
fs.mkdirSync('.test-reports', { recursive: true });
const report = '.test-reports/vitest.json';
fs.rmSync(report, { force: true });
const status = run(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { ...process.env, PAGEWATCH_CHROMIUM_PATH: chromium, PAGEWATCH_PROMTOOL_PATH: promtool },
);
console.log(`\n${summarize(report)}`);
if (!process.env.PAGEWATCH_TEST_POSTGRES_URL)
  console.log('(PostgreSQL suite not run: PAGEWATCH_TEST_POSTGRES_URL is not set)');
process.exit(status);
