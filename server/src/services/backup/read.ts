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
    throw unreadable(file, err);
  } finally {
    reader.close();
    // Stopped early (the header alone): gunzip may still reach a truncated end after nobody
    // listens, and an unheard 'error' is an uncaught exception (seen in CI). It is no news now.
    gunzip.on('error', () => {});
    gunzip.destroy();
    input.destroy();
  }
}

function unreadable(file: string, err: unknown): RestoreRefused {
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

const damaged = (what: string) => new RestoreRefused(`The backup file is damaged: ${what}`);

/** Where a reader is in a file's structure: the table it is in, the counts, the trailer. */
class Structure {
  table: TableLine | null = null;
  inTable = 0;
  trailer: TrailerLine | null = null;
  private seen = 0;
  private total = 0;

  constructor(private readonly header: BackupHeader) {}

  /** A `table`, `end` or `trailer` line, checked; the item it makes, if any. */
  mark(value: unknown, n: number): RestoreItem | null {
    const kind = (value as { kind?: unknown }).kind;
    if (kind === 'table' && !this.table) return this.open(value as TableLine);
    if (kind === 'end' && this.table) return this.close(value as EndLine);
    if (kind === 'trailer' && !this.table) return this.finish(value as TrailerLine);
    throw damaged(`line ${n} is out of place`);
  }

  private open(table: TableLine): RestoreItem {
    if (this.header.tables[this.seen] !== table.name || !Array.isArray(table.columns))
      throw damaged(`table ${String(table.name)} is not the one its header lists next`);
    this.table = table;
    return { kind: 'table', name: table.name, columns: table.columns };
  }

  private close(end: EndLine): RestoreItem {
    const name = this.table!.name;
    if (end.name !== name || end.rows !== this.inTable)
      throw damaged(
        `table ${name} holds ${this.inTable} rows, its end line says ${String(end.rows)}`,
      );
    this.total += this.inTable;
    this.seen += 1;
    this.table = null;
    this.inTable = 0;
    return { kind: 'end', name, rows: end.rows };
  }

  private finish(trailer: TrailerLine): null {
    const { seen, total } = this;
    if (trailer.tables !== seen || trailer.rows !== total || seen !== this.header.tables.length)
      throw damaged(
        `its end counts ${trailer.tables} tables and ${trailer.rows} rows, the file holds ${seen} and ${total}`,
      );
    this.trailer = trailer;
    return null;
  }
}

/**
 * The tables and rows after the header, checked as they pass: the order and names the header
 * lists, each table's row count, and the trailer. A file that ends early is refused at its end.
 */
export async function* readBackupItems(file: string): AsyncGenerator<RestoreItem> {
  let structure: Structure | null = null;
  let rows: unknown[][] = [];
  let n = 0;
  for await (const line of linesOf(file)) {
    n += 1;
    if (line === '') continue;
    if (structure?.trailer) throw damaged(`line ${n} follows its end`);
    const value = parse(line, `line ${n}`);
    if (!structure) {
      const header = BackupHeader.safeParse(value);
      if (!header.success) throw new RestoreRefused(`${file} is not a Pagewatch backup`);
      structure = new Structure(header.data);
    } else if (Array.isArray(value)) {
      if (!structure.table) throw damaged(`line ${n} is outside a table`);
      rows.push(value.map(decodeValue));
      structure.inTable += 1;
      if (rows.length >= ROWS_PER_ITEM) {
        yield { kind: 'rows', rows };
        rows = [];
      }
    } else {
      if (rows.length > 0) yield { kind: 'rows', rows };
      rows = [];
      const item = structure.mark(value, n);
      if (item) yield item;
    }
  }
  if (!structure?.trailer) {
    const inside = structure?.table ? ` inside table ${structure.table.name}` : '';
    throw new RestoreRefused(`${file} is truncated: it ends${inside} before its last line`);
  }
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
