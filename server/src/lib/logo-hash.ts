import { createHash } from 'node:crypto';

/** A logo's hash prefix: part of its URL, so a new logo is never served from a cache. */
export const logoHash = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex').slice(0, 16);
