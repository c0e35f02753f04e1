import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { app: 'pagewatch' },
    // Secrets travel in these; they never belong in a log line.
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.secret'],
  });
}
