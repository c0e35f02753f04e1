/** A range of accepted HTTP status codes, inclusive at both ends. */
export interface StatusRange {
  from: number;
  to: number;
}

const RANGE = /^\s*(\d{3})\s*(?:-\s*(\d{3})\s*)?$/;

/** Parses "200-299" or "301"; null when malformed or outside 100–599. */
export function parseStatusRange(text: string): StatusRange | null {
  const m = RANGE.exec(text);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  if (from < 100 || to > 599 || from > to) return null;
  return { from, to };
}

export function statusAccepted(status: number, accepted: readonly string[]): boolean {
  return accepted.some((text) => {
    const r = parseStatusRange(text);
    return r !== null && status >= r.from && status <= r.to;
  });
}
