import fs from 'node:fs';

const PAGE_BYTES = 4096;

/**
 * Resident memory of a process and all its descendants (Chromium's renderers, GPU and network
 * processes are children of the browser process). Linux /proc only; null elsewhere.
 */
export function processTreeRss(rootPid: number): number | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const stat = readStat(Number(e));
    if (!stat) continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(e));
    children.set(stat.ppid, list);
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += rssOf(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

function readStat(pid: number): { ppid: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: fields follow the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]) };
  } catch {
    return null;
  }
}

function rssOf(pid: number): number {
  try {
    const pages = Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : 0;
  } catch {
    return 0;
  }
}
