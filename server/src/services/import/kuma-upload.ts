import { importLimits } from '@pagewatch/contract';
import { isSqliteFile, readKumaDatabase } from '../../db/foreign/uptime-kuma.js';
import { readKumaBackup } from '../../config-as-code/importers/uptime-kuma/backup-json.js';
import type { KumaSource } from '../../config-as-code/importers/uptime-kuma/source.js';
import { kumaProblem } from '../../config-as-code/importers/uptime-kuma/problems.js';
import { AppError } from '../../lib/errors.js';

/** SPEC §9 keeps 90 days of minute rollups and shows 90-day bars: history older is not read. */
export const KUMA_HISTORY_DAYS = 90;

/**
 * Reads an upload as what it is: a Kuma 2.x database (by SQLite's header) or a 1.x JSON
 * backup (by its first character). Anything else is a clear `validation_failed`.
 */
export async function readKumaUpload(bytes: Uint8Array, now: number): Promise<KumaSource> {
  if (bytes.length > importLimits.bytesMax) {
    throw new AppError('payload_too_large', 'Import files are limited to 20 MiB');
  }
  if (bytes.length === 0) throw kumaProblem('not_sqlite', 'the file is empty');
  if (isSqliteFile(bytes)) {
    return readKumaDatabase(bytes, { historySince: now - KUMA_HISTORY_DAYS * 86_400_000 });
  }
  const text = Buffer.from(bytes).toString('utf8');
  if (text.trimStart().startsWith('{')) return readKumaBackup(text);
  if (text.startsWith('SQLite format 3')) {
    throw kumaProblem('corrupt', 'the file ends before its first page does (truncated upload?)');
  }
  throw kumaProblem(
    'not_sqlite',
    "it is neither an SQLite database (Kuma 2.x's kuma.db) nor a JSON backup (Kuma 1.x)",
  );
}
