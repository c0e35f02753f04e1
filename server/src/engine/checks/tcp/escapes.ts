/**
 * Turns text typed in a form into bytes: `\r`, `\n`, `\t`, `\0`, `\\` and `\xHH` are escapes,
 * any other backslash stays as typed; everything else is UTF-8 (see TcpMonitorInput).
 */
export function decodeEscapes(text: string): Buffer {
  const parts: Buffer[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') parts.push(Buffer.from(plain, 'utf8'));
    plain = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch !== '\\' || next === undefined) {
      plain += ch;
      continue;
    }
    const simple: Record<string, string> = { r: '\r', n: '\n', t: '\t', '0': '\0', '\\': '\\' };
    const mapped = simple[next];
    if (mapped !== undefined) {
      plain += mapped;
      i++;
      continue;
    }
    const hex = text.slice(i + 2, i + 4);
    if (next === 'x' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      flush();
      parts.push(Buffer.from([Number.parseInt(hex, 16)]));
      i += 3;
      continue;
    }
    plain += ch;
  }
  flush();
  return Buffer.concat(parts);
}

/** Bytes as readable text for a message: printable ASCII as is, the rest escaped, truncated. */
export function showBytes(text: string, max = 120): string {
  const shown = text.slice(0, max).replace(/[^\x20-\x7e]|\\/g, (c) => {
    const named: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\\': '\\\\' };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return text.length > max ? `${shown}…` : shown;
}
