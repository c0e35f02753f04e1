// `node bench/tools/profile-summary.mjs <file.cpuprofile> [top]`: where a V8 CPU profile's time went,
// by package or source folder and by function (self time). For BENCH_CPU_PROF profiles.
import fs from 'node:fs';
import { printTable } from '../lib/stats.mjs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/tools/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 20);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const totalUs = profile.endTime - profile.startTime;

/** node_modules package, server/dist folder, node: internals or the V8 pseudo-frames. */
function place(url) {
  if (!url) return '(v8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(server\/dist|contract\/dist|contract\/src)\/(?:([^/]+)\/)?/.exec(url);
  if (own) return `${own[1]}/${own[2] ?? ''}`;
  return url.startsWith('node:') ? 'node: internals' : url;
}

const byPlace = new Map();
const byFunction = new Map();
for (const [id, us] of selfUs) {
  const { callFrame: f } = nodes.get(id);
  const where = place(f.url);
  byPlace.set(where, (byPlace.get(where) ?? 0) + us);
  const key = `${f.functionName || '(anonymous)'}  ${where}:${f.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
}
const rows = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => [
      k,
      `${(us / 1000).toFixed(0)} ms`,
      `${((100 * us) / totalUs).toFixed(1)} %`,
    ]);

console.log(`${file}: ${(totalUs / 1000).toFixed(0)} ms profiled`);
printTable('self time by place', [['place', 'self', 'share'], ...rows(byPlace)]);
printTable('self time by function', [['function', 'self', 'share'], ...rows(byFunction)]);
