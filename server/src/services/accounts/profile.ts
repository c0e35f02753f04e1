import { forbidden, notFound, validationFailed, AppError } from '../../lib/errors.js';
import type { RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { verifyPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { appLink, sendAccountMail } from './system-mail.js';
import { issueToken, spendToken } from './tokens.js';

export const EMAIL_CHANGE_PATH = '/confirm-email';

const emailTaken = () =>
  validationFailed([
    { path: 'email', message: 'This email already has an account', code: 'taken' },
  ]);

async function me(deps: ServiceDeps, ctx: RequestContext): Promise<UserRecord> {
  if (ctx.actor.type !== 'user') throw forbidden('Only a signed-in person has a profile');
  const user = await deps.repos.users.findById(ctx.actor.id);
  if (!user) throw notFound('Account');
  return user;
}

/** Renames the caller. */
export async function updateOwnName(
  deps: ServiceDeps,
  ctx: RequestContext,
  name: string,
): Promise<UserRecord> {
  const before = await me(deps, ctx);
  const after = await deps.repos.users.update(before.id, { name }, deps.clock.now());
  if (!after) throw notFound('Account');
  if (before.name !== name)
    await audit(
      deps,
      ctx,
      'user.profile_updated',
      { type: 'user', id: before.id },
      `Renamed themselves from ${before.name} to ${name}`,
    );
  return after;
}

/**
 * Asks to sign in with another address: with the password, a link goes to the new address and
 * the change happens only when it is opened there (the address is proven to be theirs).
 */
export async function requestEmailChange(
  deps: ServiceDeps,
  ctx: RequestContext,
  email: string,
  password: string,
  base: string | null,
): Promise<{ email: string }> {
  const user = await me(deps, ctx);
  if (!(await verifyPassword(user.passwordHash, password)))
    throw validationFailed([
      { path: 'password', message: 'This is not your current password', code: 'wrong_password' },
    ]);
  if (email === user.email)
    throw validationFailed([
      { path: 'email', message: 'This is already your email', code: 'unchanged' },
    ]);
  if (await deps.repos.users.findByEmail(email)) throw emailTaken();
  await deps.repos.accountTokens.revokeOpen('email_change', { userId: user.id }, deps.clock.now());
  const { token } = await issueToken(deps, {
    kind: 'email_change',
    userId: user.id,
    email,
    createdBy: user.id,
    createdByLabel: user.email,
  });
  const sent = await sendAccountMail(deps, {
    to: email,
    subject: 'Confirm your new Pagewatch email',
    lines: [
      `${user.name} asked to sign in to Pagewatch with ${email} instead of ${user.email}.`,
      'Open the link to confirm; it works once, for 24 hours. If this was not you, ignore this message.',
    ],
    link: appLink(deps.publicUrl ?? base, EMAIL_CHANGE_PATH, token),
    linkLabel: 'Confirm this email',
  });
  if (!sent.mailed) {
    await deps.repos.accountTokens.revokeOpen(
      'email_change',
      { userId: user.id },
      deps.clock.now(),
    );
    throw new AppError('unavailable', `The confirmation could not be mailed: ${sent.mailError}`);
  }
  await audit(
    deps,
    ctx,
    'user.email_change_requested',
    { type: 'user', id: user.id },
    `Asked to change their email from ${user.email} to ${email}; confirmation mailed`,
  );
  return { email };
}

/** Opens the confirmation link: the account's sign-in email becomes the new address. */
export async function confirmEmailChange(
  deps: ServiceDeps,
  ctx: RequestContext,
  token: string,
): Promise<{ email: string }> {
  const r = await spendToken(deps, 'email_change', token);
  const user = r.userId === null ? null : await deps.repos.users.findById(r.userId);
  if (!user) throw notFound('Account');
  const after = await deps.repos.users.setEmail(user.id, r.email, deps.clock.now());
  if (after === 'taken') throw emailTaken();
  if (!after) throw notFound('Account');
  // Cached sessions carry the email as their label: the next request reads the new one.
  deps.authCache.evictUser(user.id);
  await audit(
    deps,
    ctx,
    'user.email_changed',
    { type: 'user', id: user.id },
    `Email changed from ${user.email} to ${after.email} (confirmed from the new address)`,
  );
  return { email: after.email };
}
