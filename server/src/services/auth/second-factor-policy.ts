import type { UserRecord } from '../../db/repositories/users.js';
import { AppError } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import { settingsOf } from '../settings/read.js';

/** Whether a person has a second factor: a TOTP app or at least one passkey. */
export async function hasSecondFactor(deps: ServiceDeps, user: UserRecord): Promise<boolean> {
  return user.totpEnabled || (await deps.repos.passkeys.countForUser(user.id)) > 0;
}

/** Settings → Security: every account must have a second factor (ADR 51). */
export const secondFactorRequiredByPolicy = async (deps: ServiceDeps): Promise<boolean> =>
  (await settingsOf(deps).get('security')).requireSecondFactor;

/** True when the policy asks this person to set up a second factor before using the app. */
export async function mustEnrolSecondFactor(deps: ServiceDeps, user: UserRecord): Promise<boolean> {
  return (await secondFactorRequiredByPolicy(deps)) && !(await hasSecondFactor(deps, user));
}

export const enrolmentRequired = (): AppError =>
  new AppError(
    'second_factor_required',
    'Your administrator requires a second factor: add an authenticator app or a passkey in My account to continue',
  );
