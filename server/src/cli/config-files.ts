import fs from 'node:fs';
import path from 'node:path';
import {
  checkFiles,
  printProblem,
  type CheckedDocument,
  type ConfigFile,
} from '../config-as-code/check.js';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';

const CONFIG_FILE = /\.(ya?ml|json)$/i;

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

/** The files named, folders expanded (like Gatus: a folder's files merge into one document). */
export function readConfigFiles(given: readonly string[], cwd: string): ConfigFile[] {
  const files: string[] = [];
  for (const name of given) {
    const full = path.resolve(cwd, name);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) throw new CliError(`${name}: no such file or folder.`);
    if (!stat.isDirectory()) files.push(full);
    else {
      const inside = filesUnder(full);
      if (inside.length === 0) throw new CliError(`${name}: no .yaml, .yml or .json files in it.`);
      files.push(...inside);
    }
  }
  return files.map((full) => ({
    file: path.relative(cwd, full) || full,
    text: fs.readFileSync(full, 'utf8'),
    path: full,
  }));
}

/** Reads and checks configuration files, printing every problem; the merged document or exit 1. */
export function loadChecked(
  ctx: CliContext,
  given: readonly string[],
): NonNullable<CheckedDocument['document']> {
  const checked = checkFiles(readConfigFiles(given, ctx.cwd));
  for (const p of checked.problems) ctx.err(`${printProblem(p)}\n`);
  const errors = checked.problems.filter((p) => p.severity === 'error').length;
  if (!checked.document) {
    throw new CliError(`${errors} error(s) found; nothing was sent.`, 1);
  }
  return checked.document;
}
