// `npm test`: the whole suite — unit, integration on every engine available, and browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureChromium } from './chromium.mjs';
import { ensurePromtool } from './promtool.mjs';
import { summarize } from './report.mjs';
import { ensureProgram } from './system-tools.mjs';

const step = (title) => console.log(`\n── ${title}`);
const run = (cmd, args, env = process.env) =>
  spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

step('Chromium for browser tests');
const chromium = ensureChromium();
console.log(`using ${chromium}`);

step('promtool for the /metrics test');
const promtool = ensurePromtool();
console.log(`using ${promtool}`);

step('ping for the ping check tests');
console.log(`using ${ensureProgram('ping', 'iputils-ping', 'the ping check tests') ?? 'none'}`);

step('pdftotext for the report PDF tests');
console.log(
  `using ${ensureProgram('pdftotext', 'poppler-utils', 'the report PDF tests') ?? 'none'}`,
);

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

step('Service peers');
// Check types that talk to a database or a broker also test against the real server when one
// is named here; their in-test peers run either way. A suite whose variable is unset says so.
const peers = [
  ['PAGEWATCH_TEST_MYSQL_URL', 'MySQL/MariaDB', 'mysql://root@127.0.0.1:3306/test'],
  ['PAGEWATCH_TEST_REDIS_URL', 'Redis', 'redis://127.0.0.1:6379'],
  ['PAGEWATCH_TEST_AMQP_URL', 'RabbitMQ', 'amqp://guest:guest@127.0.0.1:5672'],
  ['PAGEWATCH_TEST_MQTT_URL', 'MQTT broker', 'mqtt://127.0.0.1:1883'],
];
const missingPeers = peers.filter(([name]) => !process.env[name]);
for (const [name, label, example] of peers) {
  console.log(
    process.env[name]
      ? `${label}: ${process.env[name].replace(/\/\/[^@]*@/, '//…@')}`
      : `${label}: the suite against a real server was NOT run: set ${name}=${example} to run it.`,
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
for (const [name, label] of missingPeers)
  console.log(`(${label} suite not run: ${name} is not set)`);
process.exit(status);
