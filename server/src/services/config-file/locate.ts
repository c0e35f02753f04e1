import { configKinds, type ConfigFileProblem, type ConfigKind } from '@pagewatch/contract';
import { printProblem, type LocatedProblem } from '../../config-as-code/check.js';
import { showPath, type DocPath } from '../../config-as-code/paths.js';
import { parseSource } from '../../config-as-code/source.js';

/** A checked problem as the status reports it. */
export const asStatusProblem = (p: LocatedProblem): ConfigFileProblem => ({
  file: p.file,
  line: p.line,
  column: p.column,
  path: p.path,
  message: p.message,
});

/** `file:line:column: path: message`, as `pagewatch validate` prints it. */
export const showProblem = (p: ConfigFileProblem): string =>
  printProblem({ ...p, severity: 'error' });

/**
 * Places a path of the merged document (`monitors.3.url`, as an apply's field errors name it)
 * in the file that wrote that entry: files merge each list after the last file's.
 */
export function locateMerged(
  files: readonly { file: string; text: string }[],
  merged: string,
): Omit<ConfigFileProblem, 'message'> {
  const steps: DocPath = merged
    .replace(/^document\.?/, '')
    .split('.')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const [kind, index, ...rest] = steps;
  if (!configKinds.includes(kind as ConfigKind) || typeof index !== 'number') {
    return { file: files[0]?.file ?? '', line: 1, column: 1, path: showPath(steps) };
  }
  let skipped = 0;
  for (const { file, text } of files) {
    const read = parseSource(file, text);
    if (!read.source) continue;
    const list = (read.source.value as Record<string, unknown> | null)?.[kind as string];
    const count = Array.isArray(list) ? list.length : 0;
    if (index < skipped + count) {
      const local: DocPath = [kind as string, index - skipped, ...rest];
      return { file, ...read.source.locate(local), path: showPath(local) };
    }
    skipped += count;
  }
  return { file: files[0]?.file ?? '', line: 1, column: 1, path: showPath(steps) };
}
