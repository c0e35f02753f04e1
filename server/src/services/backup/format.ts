import { createHmac } from 'node:crypto';
import { BackupHeader } from '@pagewatch/contract';

/**
 * A backup file (ADR 29) is gzip of JSON lines: the header, then per table a `table` line with
 * its columns, its rows as JSON arrays in that column order and an `end` line with the row
 * count, and last a `trailer` line. Binary values travel as `{"$b":"<base64>"}`. A file without
 * its trailer, or with counts that differ from the rows read, is refused as truncated.
 */
export interface TableLine {
  kind: 'table';
  name: string;
  columns: string[];
}
export interface EndLine {
  kind: 'end';
  name: string;
  rows: number;
}
export interface TrailerLine {
  kind: 'trailer';
  tables: number;
  rows: number;
}

export const BACKUP_EXTENSION = '.pagewatch-backup.gz';

/** Fingerprint of the instance key: names which key a backup needs without revealing it. */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key)
    .update('pagewatch backup key fingerprint')
    .digest('hex')
    .slice(0, 16);
}

/** One row as a JSON line; Buffers (SQLite blobs, PostgreSQL bytea) become `{"$b":…}`. */
export function encodeRow(values: readonly unknown[]): string {
  return JSON.stringify(values.map(encodeValue));
}

function encodeValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString('base64') };
  if (typeof v === 'bigint') return Number(v);
  return v;
}

export function decodeValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object') {
    const b = (v as { $b?: unknown }).$b;
    if (typeof b !== 'string') throw new Error('a value is neither text, number, null nor binary');
    return Buffer.from(b, 'base64');
  }
  return v;
}

/** A file name that sorts by time: `pagewatch-2026-11-27T11-45-00Z.pagewatch-backup.gz`. */
export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return `pagewatch-${stamp}${BACKUP_EXTENSION}`;
}

export function headerLine(header: BackupHeader): string {
  return JSON.stringify({ ...BackupHeader.parse(header) });
}
