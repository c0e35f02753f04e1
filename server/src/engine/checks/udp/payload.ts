import type { PayloadFormat } from '@pagewatch/contract';
import { decodeEscapes } from '../tcp/escapes.js';

/** The bytes a UDP monitor's text or hex field stands for (see UdpMonitorInput). */
export function payloadBytes(text: string, format: PayloadFormat): Buffer {
  return format === 'hex' ? Buffer.from(text.replace(/\s+/g, ''), 'hex') : decodeEscapes(text);
}

/** Bytes as the format they were asked in: hex pairs, or text with escapes. */
export function showPayload(bytes: Buffer, format: PayloadFormat, max = 120): string {
  if (format === 'hex') {
    const hex = bytes
      .subarray(0, max / 2)
      .toString('hex')
      .replace(/(..)(?=.)/g, '$1 ');
    return bytes.length > max / 2 ? `${hex}…` : hex;
  }
  const text = bytes.toString('latin1').slice(0, max);
  const shown = text.replace(/[^\x20-\x7e]|\\/g, (c) => {
    const named: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\\': '\\\\' };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return bytes.length > max ? `${shown}…` : shown;
}
