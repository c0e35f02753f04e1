import { isApiError } from '../../lib/api';
import { describeError, type ErrorText } from '../../lib/errors';
import { formatWait } from '../../lib/format';

/** Sign-in failures in plain words: a 401 here is a wrong password, not a lost session. */
export function describeSignInError(error: unknown): ErrorText {
  if (isApiError(error) && error.kind === 'unauthenticated') {
    return { title: error.detail ?? 'Email or password is incorrect', detail: '' };
  }
  if (isApiError(error) && error.kind === 'rate_limited') {
    return {
      title: 'Too many failed sign-in attempts',
      detail:
        error.retryAfter !== undefined
          ? `Sign-in is paused for this account to keep it safe. Try again in ${formatWait(error.retryAfter)}.`
          : 'Sign-in is paused for this account to keep it safe. Try again later.',
    };
  }
  return describeError(error);
}

/** True when a two-factor step failed because its challenge ran out: start again. */
export const challengeExpired = (error: unknown): boolean =>
  isApiError(error) && error.kind === 'unauthenticated' && /expired/i.test(error.detail ?? '');
