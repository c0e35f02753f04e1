import { AppError } from '../../../lib/errors.js';

/** Why an upload cannot be imported; sent as the field error's `code` (`kuma_<reason>`). */
export type KumaProblem =
  'not_sqlite' | 'not_kuma' | 'kuma_1_database' | 'unknown_version' | 'corrupt' | 'bad_backup';

/** A `validation_failed` problem about the uploaded file, with a stable code per reason. */
export function kumaProblem(reason: KumaProblem, detail: string): AppError {
  const message = `${headline[reason]}: ${detail}`;
  return new AppError('validation_failed', message, [
    { path: 'file', code: `kuma_${reason}`, message },
  ]);
}

const headline: Record<KumaProblem, string> = {
  not_sqlite: 'This is not an Uptime Kuma database or backup',
  not_kuma: 'This SQLite database is not an Uptime Kuma database',
  kuma_1_database: 'This is an Uptime Kuma 1.x database',
  unknown_version: 'This Uptime Kuma database is of a version Pagewatch does not know',
  corrupt: 'This Uptime Kuma database is damaged or incomplete',
  bad_backup: 'This is not a valid Uptime Kuma 1.x JSON backup',
};
