import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ConfigFileProblem } from '@pagewatch/contract';

const CONFIG_FILE = /\.(ya?ml|json)$/i;

export interface ReadFiles {
  /** Each file's name (relative to the folder given, or its base name) and text. */
  files: { file: string; text: string; path: string }[];
  /** sha256 over names and texts: a change of either is a change. */
  hash: string;
}

/** Every *.yaml, *.yml and *.json under a folder, subfolders included, in name order. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return filesUnder(full);
      return e.isFile() && CONFIG_FILE.test(e.name) ? [full] : [];
    });
}

const problem = (file: string, message: string): ConfigFileProblem => ({
  file,
  line: 1,
  column: 1,
  path: '',
  message,
});

/**
 * Reads PAGEWATCH_CONFIG: one file, or a folder whose files merge in name order (as
 * `pagewatch validate` merges them). A missing source or an empty folder is a problem.
 */
export function readConfigSource(source: string): ReadFiles | { problems: ConfigFileProblem[] } {
  const name = path.basename(source);
  try {
    const stat = fs.statSync(source, { throwIfNoEntry: false });
    if (!stat) return { problems: [problem(name, `${source}: no such file or folder`)] };
    const base = stat.isDirectory() ? source : path.dirname(source);
    const full = stat.isDirectory() ? filesUnder(source) : [source];
    if (full.length === 0) {
      return { problems: [problem(name, `${source}: no .yaml, .yml or .json files in it`)] };
    }
    const files = full.map((f) => ({
      file: path.relative(base, f),
      text: fs.readFileSync(f, 'utf8'),
      path: path.resolve(f),
    }));
    const hash = createHash('sha256');
    for (const f of files) hash.update(`${f.file}\0${f.text}\0`);
    return { files, hash: hash.digest('hex') };
  } catch (err) {
    return { problems: [problem(name, `cannot read ${source}: ${(err as Error).message}`)] };
  }
}

/** Where `${env:NAME}` is first written in the files, for a missing variable's report. */
export function locateReference(
  files: readonly { file: string; text: string }[],
  name: string,
): { file: string; line: number; column: number } {
  const needle = `\${env:${name}}`;
  for (const { file, text } of files) {
    const at = text.indexOf(needle);
    if (at < 0) continue;
    const before = text.slice(0, at).split('\n');
    return { file, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
  }
  return { file: '', line: 1, column: 1 };
}
