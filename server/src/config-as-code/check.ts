import { ConfigDocument, configKinds, type ConfigKind } from '@pagewatch/contract';
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
export function checkFiles(files: readonly { file: string; text: string }[]): CheckedDocument {
  const problems: LocatedProblem[] = [];
  const parsed: { source: Source; document: ConfigDocument }[] = [];
  for (const { file, text } of files) {
    const read = parseSource(file, text);
    if (!read.source) {
      problems.push(...read.problems.map((p) => ({ ...p, path: '', severity: 'error' as const })));
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
  };
  // Where each merged entry came from: its file and its place in that file's list.
  const origin: Record<ConfigKind, { source: Source; index: number }[]> = {
    channels: [],
    monitors: [],
    statusPages: [],
    maintenance: [],
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
