import type { FieldError, ProblemType } from '@pagewatch/contract';

/** A failure a caller can act on; the HTTP layer maps `type` to a problem+json answer. */
export class AppError extends Error {
  constructor(
    readonly type: ProblemType,
    message: string,
    readonly errors?: FieldError[],
    /** Seconds, for rate_limited answers. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string): AppError =>
  new AppError('not_found', `${what} was not found`);
export const conflict = (message: string): AppError => new AppError('conflict', message);
export const validationFailed = (
  errors: FieldError[],
  message = 'Some fields need attention',
): AppError => new AppError('validation_failed', message, errors);
export const unavailable = (message: string): AppError => new AppError('unavailable', message);
export const forbidden = (message: string): AppError => new AppError('forbidden', message);
export const unauthenticated = (message = 'Sign in to continue'): AppError =>
  new AppError('unauthenticated', message);
