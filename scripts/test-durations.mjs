// Keeps the test files' durations of a full run for the sequencer (vitest.sequencer.ts), which
// starts the longest first. Run after `npm test`: node scripts/test-durations.mjs [report]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const report = process.argv[2] ?? path.join(root, '.test-reports/vitest.json');
const out = path.join(root, 'scripts/test-durations.json');

const r = JSON.parse(fs.readFileSync(report, 'utf8'));
const durations = {};
for (const f of r.testResults ?? []) {
  if (!f.startTime || !f.endTime) continue;
  // The report's paths are those of the machine that ran it; keep them relative to the repo.
  const abs = f.name.split(path.sep).join('/');
  const at = abs.search(/\/(server|web|contract|e2e)\/.*\.test\.tsx?$/);
  if (at < 0) continue;
  durations[abs.slice(at + 1)] = Math.round(f.endTime - f.startTime);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${Object.keys(sorted).length} files' durations written to ${path.relative(root, out)}`,
);
