import type { TotpEnrolment } from '@pagewatch/contract';
import QRCode from 'qrcode';
import type { RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { conflict, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { endUserSessions } from './sessions.js';
import { newRecoveryCodes, newTotpSecret, recoveryHash, totpFor, totpStep } from './totp.js';

async function caller(deps: ServiceDeps, ctx: RequestContext): Promise<UserRecord> {
  if (ctx.actor.type !== 'user')
    throw forbidden('Two-factor settings belong to a signed-in person');
  const user = await deps.repos.users.findById(ctx.actor.id);
  if (!user) throw notFound('Account');
  return user;
}

const wrongCode = () =>
  validationFailed([
    {
      path: 'code',
      message: 'That code is not valid; check the time on your phone and try again',
      code: 'wrong_code',
    },
  ]);

/** Starts enrolment: a new secret, kept encrypted and pending until a code confirms it. */
export async function startTotpEnrolment(
  deps: ServiceDeps,
  ctx: RequestContext,
): Promise<TotpEnrolment> {
  const user = await caller(deps, ctx);
  if (user.totpEnabled)
    throw conflict('Two-factor sign-in is already on; turn it off first to enrol again');
  const secret = newTotpSecret();
  await deps.repos.users.update(
    user.id,
    { totpPendingSecret: deps.secrets.seal(secret) },
    deps.clock.now(),
  );
  const otpauthUrl = totpFor(secret, user.email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
  });
  return { secret, otpauthUrl, qrSvg };
}

/** Confirms enrolment with a code; returns the ten recovery codes, shown this once. */
export async function confirmTotp(
  deps: ServiceDeps,
  ctx: RequestContext,
  code: string,
): Promise<string[]> {
  const user = await caller(deps, ctx);
  if (!user.totpPendingSecret) throw conflict('Start two-factor enrolment first');
  const secret = deps.secrets.open(user.totpPendingSecret);
  // The confirming code is spent: it can't be used again to sign in.
  const step = totpStep(secret, code, deps.clock.now(), null);
  if (step === null) throw wrongCode();
  const codes = newRecoveryCodes();
  await deps.repos.users.update(
    user.id,
    {
      totpSecret: user.totpPendingSecret,
      totpPendingSecret: null,
      totpEnabled: true,
      totpLastStep: step,
      recoveryCodeHashes: codes.map(recoveryHash),
    },
    deps.clock.now(),
  );
  // A privilege change: other sessions must prove the second factor too.
  if (ctx.actor.type === 'user') await endUserSessions(deps, user.id, ctx.actor.sessionHash);
  await audit(
    deps,
    ctx,
    'auth.totp_enabled',
    { type: 'user', id: user.id },
    'Turned on two-factor sign-in',
  );
  return codes;
}

/** Turns two-factor off; needs the password and a current code (or a recovery code). */
export async function disableTotp(
  deps: ServiceDeps,
  ctx: RequestContext,
  password: string,
  code: string,
): Promise<void> {
  const user = await caller(deps, ctx);
  if (!user.totpEnabled || !user.totpSecret) throw conflict('Two-factor sign-in is not on');
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw validationFailed([
      { path: 'password', message: 'This is not your password', code: 'wrong_password' },
    ]);
  }
  const ok =
    totpStep(
      deps.secrets.open(user.totpSecret),
      code.trim(),
      deps.clock.now(),
      user.totpLastStep,
    ) !== null || user.recoveryCodeHashes.includes(recoveryHash(code));
  if (!ok) throw wrongCode();
  await deps.repos.users.update(
    user.id,
    {
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabled: false,
      totpLastStep: null,
      recoveryCodeHashes: [],
    },
    deps.clock.now(),
  );
  await audit(
    deps,
    ctx,
    'auth.totp_disabled',
    { type: 'user', id: user.id },
    'Turned off two-factor sign-in',
  );
}
