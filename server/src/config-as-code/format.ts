import type { ConfigDocument } from '@pagewatch/contract';
import { stringify } from 'yaml';

export type ConfigFormat = 'json' | 'yaml';

/** A document as file text: the same document always gives the same bytes. */
export function formatDocument(document: ConfigDocument, format: ConfigFormat): string {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  // No folding of long lines, no anchors for repeated values: diffs stay line by line.
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
}

/** The format a file name asks for: .json, else YAML. */
export const formatOfFile = (file: string): ConfigFormat =>
  file.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
