import pino, { type Logger } from 'pino';

export type { Logger };

/** `worker` names a scheduler worker's lines (PAGEWATCH_WORKERS); the primary's have none. */
export function createLogger(level: string, worker: number | null = null): Logger {
  return pino({
    level,
    base: worker === null ? { app: 'pagewatch' } : { app: 'pagewatch', worker },
    // Secrets travel in these; they never belong in a log line.
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'],
  });
}
