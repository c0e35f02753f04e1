import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { DocPath } from './paths.js';

/** Where something is in a file, 1-based as editors count. */
export interface Position {
  line: number;
  column: number;
}

/** A parsed file: its value, and where each path of it is written. */
export interface Source {
  file: string;
  value: unknown;
  /** The position of the value at `path` (of its key with `key`), or of its nearest parent. */
  locate(path: DocPath, key?: boolean): Position;
}

export interface SyntaxProblem extends Position {
  file: string;
  message: string;
}

/** Reads a YAML or JSON file (JSON is YAML's flow style): its value, or its syntax errors. */
export function parseSource(
  file: string,
  text: string,
): { source: Source; problems: [] } | { source: null; problems: SyntaxProblem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Position => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({
      file,
      ...at(e.pos[0]),
      message: firstLine(e.message),
    }));
    return { source: null, problems };
  }
  const locate = (path: DocPath, key = false): Position => {
    let node: unknown = doc.contents;
    let offset = (node as { range?: [number] } | null)?.range?.[0] ?? 0;
    for (const [i, step] of path.entries()) {
      if (isMap(node)) {
        const pair = node.items.find(
          (p) => isScalar(p.key) && String(p.key.value) === String(step),
        );
        if (!pair) break;
        offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
        if (key && i === path.length - 1) break;
        node = pair.value;
      } else if (isSeq(node)) {
        node = node.items[Number(step)];
        if (node === undefined) break;
      } else break;
      offset = (node as { range?: [number] } | null)?.range?.[0] ?? offset;
    }
    return at(offset);
  };
  return {
    source: { file, value: doc.toJS({ maxAliasCount: 100 }) as unknown, locate },
    problems: [],
  };
}

const firstLine = (message: string): string => message.split('\n')[0] ?? message;
