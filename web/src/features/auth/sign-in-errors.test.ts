import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { challengeExpired, describeSignInError } from './sign-in-errors';

const problem = (kind: ApiError['kind'], status: number, detail?: string, retryAfter?: number) =>
  new ApiError({ kind, status, title: 'x', detail, retryAfter });

describe('sign-in errors in plain words', () => {
  it('a 401 here is a wrong password, said as the server says it', () => {
    expect(
      describeSignInError(problem('unauthenticated', 401, 'Email or password is incorrect')),
    ).toEqual({ title: 'Email or password is incorrect', detail: '' });
  });

  it('says how long to wait after too many attempts', () => {
    expect(describeSignInError(problem('rate_limited', 429, undefined, 840)).detail).toMatch(
      /Try again in 14 minutes\./,
    );
  });

  it('tells an expired two-factor step from a wrong code', () => {
    expect(
      challengeExpired(
        problem('unauthenticated', 401, 'This sign-in has expired; enter your password again'),
      ),
    ).toBe(true);
    expect(challengeExpired(problem('unauthenticated', 401, 'That code is not valid'))).toBe(false);
  });
});
