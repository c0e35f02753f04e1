import fs from 'node:fs';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { BackupHeader } from '@pagewatch/contract';
import type { RestoreItem } from '../../db/backup/index.js';
import { RestoreRefused } from '../../lib/restore-refused.js';
import { decodeValue, type EndLine, type TableLine, type TrailerLine } from './format.js';

const ROWS_PER_ITEM = 500;

/** The file's lines, ungzipped; gzip and file errors become refusals naming the file. */
async function* linesOf(file: string): AsyncGenerator<string> {
  const input = fs.createReadStream(file);
  const gunzip = zlib.createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  const reader = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  try {
    for await (const line of reader) yield line;
  } catch (err) {
    throw damaged(file, err);
  } finally {
    reader.close();
    input.destroy();
  }
}

function damaged(file: string, err: unknown): RestoreRefused {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new RestoreRefused(`${file} does not exist`);
  if (e.code === 'EISDIR') return new RestoreRefused(`${file} is a folder, not a backup file`);
  if (e.code === 'Z_DATA_ERROR')
    return new RestoreRefused(`${file} is not a Pagewatch backup (not gzip data): ${e.message}`);
  if (e.code === 'Z_BUF_ERROR')
    return new RestoreRefused(`${file} is truncated: it ends in the middle of its gzip data`);
  if (err instanceof RestoreRefused) return err;
  return new RestoreRefused(`${file} could not be read: ${e.message}`);
}

function parse(line: string, where: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new RestoreRefused(`The backup file is damaged: ${where} is not JSON`);
  }
}

/** The header alone (the first line), read without going through the rest. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  for await (const line of linesOf(file)) {
    const parsed = BackupHeader.safeParse(parse(line, 'its first line'));
    if (!parsed.success) {
      const v = (parse(line, 'its first line') as { formatVersion?: unknown }).formatVersion;
      if (typeof v === 'number' && v > 1)
        throw new RestoreRefused(
          `${file} is a backup format version ${v}; this Pagewatch reads version 1: upgrade Pagewatch to restore it`,
        );
      throw new RestoreRefused(`${file} is not a Pagewatch backup (its first line is no header)`);
    }
    return parsed.data;
  }
  throw new RestoreRefused(`${file} is empty`);
}

/**
 * The tables and rows after the header, checked as they pass: the order and names the header
 * lists, each table's row count, and the trailer. A file that ends early is refused at its end.
 */
export async function* readBackupItems(file: string): AsyncGenerator<RestoreItem> {
  let header: BackupHeader | null = null;
  let table: TableLine | null = null;
  let rows: unknown[][] = [];
  let seen = 0;
  let total = 0;
  let trailer: TrailerLine | null = null;
  let n = 0;
  let inTable = 0;
  for await (const line of linesOf(file)) {
    n += 1;
    if (line === '') continue;
    if (trailer) throw new RestoreRefused(`The backup file is damaged: line ${n} follows its end`);
    const value = parse(line, `line ${n}`);
    if (!header) {
      header = BackupHeader.parse(value);
      continue;
    }
    if (Array.isArray(value)) {
      if (!table)
        throw new RestoreRefused(`The backup file is damaged: line ${n} is outside a table`);
      rows.push(value.map(decodeValue));
      inTable += 1;
      if (rows.length >= ROWS_PER_ITEM) {
        yield { kind: 'rows', rows };
        rows = [];
      }
      continue;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (kind === 'table' && !table) {
      table = value as TableLine;
      if (header.tables[seen] !== table.name || !Array.isArray(table.columns))
        throw new RestoreRefused(
          `The backup file is damaged: table ${String(table.name)} is not the one its header lists next`,
        );
      yield { kind: 'table', name: table.name, columns: table.columns };
    } else if (kind === 'end' && table) {
      if (rows.length > 0) yield { kind: 'rows', rows };
      rows = [];
      const end = value as EndLine;
      if (end.name !== table.name || end.rows !== inTable)
        throw new RestoreRefused(
          `The backup file is damaged: table ${table.name} holds ${inTable} rows, its end line says ${String(end.rows)}`,
        );
      total += inTable;
      inTable = 0;
      yield { kind: 'end', name: end.name, rows: Number(end.rows) };
      table = null;
      seen += 1;
    } else if (kind === 'trailer' && !table) {
      trailer = value as TrailerLine;
      if (trailer.tables !== seen || trailer.rows !== total || seen !== header.tables.length)
        throw new RestoreRefused(
          `The backup file is damaged: its end counts ${trailer.tables} tables and ${trailer.rows} rows, the file holds ${seen} and ${total}`,
        );
    } else {
      throw new RestoreRefused(`The backup file is damaged: line ${n} is out of place`);
    }
  }
  if (!trailer)
    throw new RestoreRefused(
      `${file} is truncated: it ends${table ? ` inside table ${table.name}` : ''} before its last line`,
    );
}

/** Reads a whole file through, as a restore would, without writing: for a download's check. */
export async function verifyBackupFile(
  file: string,
): Promise<{ header: BackupHeader; tables: number; rows: number }> {
  const header = await readBackupHeader(file);
  let tables = 0;
  let rows = 0;
  for await (const item of readBackupItems(file)) {
    if (item.kind === 'end') {
      tables += 1;
      rows += item.rows;
    }
  }
  return { header, tables, rows };
}
