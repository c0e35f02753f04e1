import { logoHash } from '../lib/logo-hash.js';

/** A logo as the document writes it: a base64 data: URI of its type. */
export const logoData = (type: string, bytes: Uint8Array): string =>
  `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

/** The type and bytes of a data: URI that passed the document's schema. */
export function logoOf(data: string): { type: string; bytes: Buffer } {
  const comma = data.indexOf(',');
  return {
    type: data.slice('data:'.length, data.indexOf(';')),
    bytes: Buffer.from(data.slice(comma + 1), 'base64'),
  };
}

/**
 * A logo as a plan, drift baseline or diff shows it: type, size and hash, never 300 KB of
 * base64. Anything else is returned as it is.
 */
export function logoSummary(value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith('data:')) return value;
  const { type, bytes } = logoOf(value);
  return `${type}, ${(bytes.length / 1024).toFixed(1)} KiB, sha256:${logoHash(bytes)}`;
}
