import fs from 'node:fs';
import nodePath from 'node:path';
import {
  ConfigDocument,
  configKinds,
  statusPageLimits,
  type ConfigKind,
} from '@pagewatch/contract';
import { logoData } from './logo.js';
import type { z } from 'zod';
import { showPath, type ConfigProblem, type DocPath } from './paths.js';
import { crossChecks } from './references.js';
import { inlineSecretWarnings } from './secrets.js';
import { parseSource, type Position, type Source } from './source.js';

/** A problem with its place: `file:line:column: path: message`. */
export interface LocatedProblem extends Position {
  file: string;
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export const printProblem = (p: LocatedProblem): string =>
  `${p.file}:${p.line}:${p.column}: ${p.path === '' ? '' : `${p.path}: `}` +
  `${p.severity === 'warning' ? 'warning: ' : ''}${p.message}`;

function schemaProblems(source: Source, issues: readonly z.core.$ZodIssue[]): LocatedProblem[] {
  return issues.flatMap((issue) => {
    const path = issue.path as DocPath;
    // An unknown field is reported where it is written, one line each.
    const unknown = issue.code === 'unrecognized_keys' ? issue.keys : null;
    if (unknown) {
      return unknown.map((k) => ({
        file: source.file,
        ...source.locate([...path, k], true),
        path: showPath([...path, k]),
        message: `Unknown field "${k}"`,
        severity: 'error' as const,
      }));
    }
    return [
      {
        file: source.file,
        ...source.locate(path),
        path: showPath(path),
        message: issue.message,
        severity: 'error' as const,
      },
    ];
  });
}

/** In file order, then as the lines read. */
function inOrder(problems: LocatedProblem[], files: readonly { file: string }[]): LocatedProblem[] {
  const rank = new Map(files.map((f, i) => [f.file, i]));
  return [...problems].sort(
    (a, b) =>
      (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.line - b.line || a.column - b.column,
  );
}

/** A configuration file: its name as shown, its text, and where it is (for files it names). */
export interface ConfigFile {
  file: string;
  text: string;
  /** The file's full path; logo files it names are read relative to it. */
  path?: string;
}

const LOGO_FILE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/**
 * Status pages whose `logo` names an image file (not a data: URI) get the file's content in
 * its place, read relative to the configuration file; the server checks the bytes as it
 * checks an upload.
 */
function readLogoFiles(source: Source, at: string | undefined): LocatedProblem[] {
  const pages = (source.value as { statusPages?: unknown } | null)?.statusPages;
  if (!Array.isArray(pages)) return [];
  const problems: LocatedProblem[] = [];
  pages.forEach((page: unknown, i) => {
    const entry = page as { logo?: unknown } | null;
    const name = entry?.logo;
    if (typeof name !== 'string' || name.startsWith('data:')) return;
    const path: DocPath = ['statusPages', i, 'logo'];
    const fail = (message: string) =>
      problems.push({
        file: source.file,
        ...source.locate(path),
        path: showPath(path),
        message,
        severity: 'error',
      });
    const type = LOGO_FILE_TYPES[nodePath.extname(name).toLowerCase()];
    if (!type) return fail('Name a .png, .jpg, .webp or .gif file (SVG is not accepted)');
    if (at === undefined) return fail('Logo files are read only from files on disk');
    const full = nodePath.resolve(nodePath.dirname(at), name);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(full);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return fail(
        code === 'ENOENT' ? `${name}: no such file` : `${name}: cannot be read (${code})`,
      );
    }
    if (bytes.length > statusPageLimits.logoBytesMax)
      return fail(`${name} is ${Math.ceil(bytes.length / 1024)} KiB: logos are limited to 256 KiB`);
    entry!.logo = logoData(type, bytes);
  });
  return problems;
}

export interface CheckedDocument {
  /** The files merged; null when any has an error. */
  document: ConfigDocument | null;
  problems: LocatedProblem[];
}

/**
 * Checks configuration files as `pagewatch validate` does, offline: syntax, the schema (unknown
 * fields included), keys unique across files, references known; inline secrets are warnings.
 * Files merge in the order given, each list after the last file's.
 */
export function checkFiles(files: readonly ConfigFile[]): CheckedDocument {
  const problems: LocatedProblem[] = [];
  const parsed: { source: Source; document: ConfigDocument }[] = [];
  for (const { file, text, path: at } of files) {
    const read = parseSource(file, text);
    if (!read.source) {
      problems.push(...read.problems.map((p) => ({ ...p, path: '', severity: 'error' as const })));
      continue;
    }
    const logoProblems = readLogoFiles(read.source, at);
    if (logoProblems.length > 0) {
      problems.push(...logoProblems);
      continue;
    }
    const result = ConfigDocument.safeParse(read.source.value ?? {});
    if (!result.success) problems.push(...schemaProblems(read.source, result.error.issues));
    else parsed.push({ source: read.source, document: result.data });
  }
  if (problems.length > 0) return { document: null, problems: inOrder(problems, files) };
  const merged: ConfigDocument = {
    version: 1,
    channels: [],
    monitors: [],
    statusPages: [],
    maintenance: [],
    slos: [],
  };
  // Where each merged entry came from: its file and its place in that file's list.
  const origin: Record<ConfigKind, { source: Source; index: number }[]> = {
    channels: [],
    monitors: [],
    statusPages: [],
    maintenance: [],
    slos: [],
  };
  for (const { source, document } of parsed) {
    for (const kind of configKinds) {
      (document[kind] as unknown[]).forEach((entry, index) => {
        (merged[kind] as unknown[]).push(entry);
        origin[kind].push({ source, index });
      });
    }
  }
  const locate = (path: DocPath) => {
    const [kind, i, ...rest] = path as [ConfigKind, number, ...DocPath];
    const from = origin[kind][i];
    const local: DocPath = [kind, from?.index ?? i, ...rest];
    const at = from ? from.source.locate(local) : { line: 1, column: 1 };
    return { file: from?.source.file ?? '', ...at, path: showPath(local) };
  };
  const place = (p: ConfigProblem): LocatedProblem => {
    const first = p.related ? locate(p.related) : null;
    const also = first ? ` (first at ${first.file}:${first.line}:${first.column})` : '';
    return { ...locate(p.path), message: p.message + also, severity: p.severity };
  };
  const found = [...crossChecks(merged), ...inlineSecretWarnings(merged)].map(place);
  const failed = found.some((p) => p.severity === 'error');
  return { document: failed ? null : merged, problems: inOrder(found, files) };
}
