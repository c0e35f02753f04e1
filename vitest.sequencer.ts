import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first. With a few workers and files that range from 0.1 s to 5 minutes, the
 * order decides the wall time: a long file that starts last runs alone at the end. Vitest
 * orders by its own cache of durations, which a clean clone (CI) does not have, and then by
 * file size, which says little about a file that freezes a probe for two minutes. So the
 * durations of the last full run are kept in `scripts/test-durations.json` (refreshed with
 * `node scripts/test-durations.mjs`); the local cache, when there is one, is newer and wins.
 * Files in neither run first, as vitest does: a new file is as likely to be long as short.
 */
const table = path.join(import.meta.dirname, 'scripts/test-durations.json');

function readTable(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(table, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  private readonly known = readTable();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    // One lookup per file, not one per comparison.
    const seen = new Map<TestSpecification, { duration: number; failed: boolean }>();
    const about = (spec: TestSpecification) => {
      let known = seen.get(spec);
      if (!known) {
        const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
        const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
        known = {
          duration: cached?.duration ?? this.known[file] ?? Infinity,
          failed: cached?.failed ?? false,
        };
        seen.set(spec, known);
      }
      return known;
    };
    const duration = (spec: TestSpecification) => about(spec).duration;
    const failed = (spec: TestSpecification) => about(spec).failed;
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      // A file that failed last time runs early, so a local rerun says so soon.
      if (failed(a) !== failed(b)) return failed(a) ? -1 : 1;
      const da = duration(a);
      const db = duration(b);
      return da === db ? 0 : da > db ? -1 : 1;
    });
  }
}
