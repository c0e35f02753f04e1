import fs from 'node:fs';
import path from 'node:path';
import type { ProbeResultItem } from '@pagewatch/contract';

export interface SpoolOptions {
  /** Results older than this are dropped, oldest first (default 1 hour). */
  maxAgeMs?: number;
  /** The spool's size on disk at most (default 256 MB). */
  maxBytes?: number;
}

interface Entry {
  file: string;
  at: number;
  items: number;
  bytes: number;
}

/**
 * Results the server has not acknowledged, one file per batch, kept while the probe is cut
 * off and sent again (as replayed) once it is back. Bounded by age and size: when full the
 * oldest batches go first and are counted, so a long outage loses the oldest, never the newest.
 */
export class Spool {
  private entries: Entry[] = [];
  private seq = 0;
  private droppedItems = 0;
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly dir: string,
    options: SpoolOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 3_600_000;
    this.maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
    fs.mkdirSync(dir, { recursive: true });
    // Batches a previous run left behind are sent like any others.
    for (const file of fs.readdirSync(dir).sort()) {
      const m = /^(\d+)-(\d+)-(\d+)\.json$/.exec(file);
      if (!m) continue;
      const bytes = fs.statSync(path.join(dir, file)).size;
      this.entries.push({ file, at: Number(m[1]), items: Number(m[3]), bytes });
      this.seq = Math.max(this.seq, Number(m[2]));
    }
  }

  /** Results waiting on disk. */
  depth(): number {
    return this.entries.reduce((n, e) => n + e.items, 0);
  }

  dropped(): number {
    return this.droppedItems;
  }

  append(items: readonly ProbeResultItem[], now: number): void {
    if (items.length === 0) return;
    const text = JSON.stringify(items);
    const file = `${now}-${String(++this.seq).padStart(9, '0')}-${items.length}.json`;
    fs.writeFileSync(path.join(this.dir, file), text);
    this.entries.push({ file, at: now, items: items.length, bytes: Buffer.byteLength(text) });
    this.trim(now);
  }

  /** The oldest batch waiting, or null. */
  oldest(): { file: string; items: ProbeResultItem[] } | null {
    const e = this.entries[0];
    if (!e) return null;
    try {
      const items = JSON.parse(fs.readFileSync(path.join(this.dir, e.file), 'utf8'));
      return { file: e.file, items: items as ProbeResultItem[] };
    } catch {
      // A torn write (the probe died mid-file): nothing in it can be trusted.
      this.remove(e.file);
      this.droppedItems += e.items;
      return this.oldest();
    }
  }

  remove(file: string): void {
    this.entries = this.entries.filter((e) => e.file !== file);
    fs.rmSync(path.join(this.dir, file), { force: true });
  }

  private trim(now: number): void {
    let bytes = this.entries.reduce((n, e) => n + e.bytes, 0);
    while (this.entries.length > 0) {
      const e = this.entries[0]!;
      if (bytes <= this.maxBytes && now - e.at <= this.maxAgeMs) break;
      bytes -= e.bytes;
      this.droppedItems += e.items;
      this.remove(e.file);
    }
  }
}
