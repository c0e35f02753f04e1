import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The instance key: derived from PAGEWATCH_SECRET when set, otherwise generated once into
 * the data folder (mode 0600) and read from there on every later start.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return createHash('sha256').update(configured, 'utf8').digest();
  const file = path.join(dataDir, 'secret.key');
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const key = Buffer.from(text, 'base64');
    if (key.length === 32) return key;
    throw new Error(`${file} does not hold a 32-byte base64 key`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx' fails if another process created it first; then we read theirs.
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadSecretKey(undefined, dataDir);
    throw err;
  }
}
