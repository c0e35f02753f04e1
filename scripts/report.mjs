// Turns the test runners' JSON reports into the one closing line CI reads.
import fs from 'node:fs';

export function counts(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    // Files that failed to load report no tests but count as failures.
    const brokenFiles = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
    ).length;
    return {
      passed: r.numPassedTests ?? 0,
      failed: (r.numFailedTests ?? 0) + brokenFiles,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    };
  } catch {
    return null;
  }
}

export function summarize(file) {
  const c = counts(file);
  if (!c) return '0 passed, 1 failed';
  return `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(summarize(process.argv[2] ?? '.test-reports/vitest.json'));
