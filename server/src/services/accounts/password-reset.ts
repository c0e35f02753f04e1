import { anonymousContext, systemContext, type RequestContext } from '../../domain/actor.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import { endUserSessions } from '../auth/sessions.js';
import type { ServiceDeps } from '../deps.js';
import { inBackground } from './background.js';
import { appLink, sendAccountMail, systemMailChannel } from './system-mail.js';
import { takeResetAttempt } from './throttle.js';
import { issueToken, readToken, spendToken } from './tokens.js';

export const RESET_PATH = '/reset-password';

/** Whether "Forgot password?" can mail a link: a public URL and a system mail channel. */
export async function resetByMailAvailable(deps: ServiceDeps): Promise<boolean> {
  return Boolean(deps.publicUrl) && (await systemMailChannel(deps)) !== null;
}

/** A fresh reset link for a person; their earlier unused ones stop working. */
export async function issueResetLink(
  deps: ServiceDeps,
  user: UserRecord,
  by: { id: number | null; label: string },
  base: string | null | undefined,
): Promise<string> {
  await deps.repos.accountTokens.revokeOpen(
    'password_reset',
    { userId: user.id },
    deps.clock.now(),
  );
  const { token } = await issueToken(deps, {
    kind: 'password_reset',
    userId: user.id,
    email: user.email,
    createdBy: by.id,
    createdByLabel: by.label,
  });
  return appLink(base, RESET_PATH, token);
}

/**
 * "Forgot password?": counts the request against the address and the client, then answers at
 * once; finding the account and mailing the link happen after the answer, so neither the
 * answer nor its timing tells whether the address has an account.
 */
export async function requestPasswordReset(
  deps: ServiceDeps,
  ctx: RequestContext,
  email: string,
): Promise<void> {
  await takeResetAttempt(deps, email, ctx.ip);
  inBackground(async () => {
    const user = await deps.repos.users.findByEmail(email);
    if (!user || user.disabled || !deps.publicUrl) return;
    const link = await issueResetLink(deps, user, { id: null, label: 'anonymous' }, deps.publicUrl);
    const sent = await sendAccountMail(deps, {
      to: user.email,
      subject: 'Reset your Pagewatch password',
      lines: [
        `Someone (hopefully you) asked to reset the password of ${user.email} on Pagewatch.`,
        'The link works once, for one hour. If you did not ask, ignore this message: your password stays as it is.',
      ],
      link,
      linkLabel: 'Choose a new password',
    });
    await audit(
      deps,
      anonymousContext(ctx.ip, ctx.userAgent),
      'auth.password_reset_requested',
      { type: 'user', id: user.id },
      sent.mailed
        ? `Reset link mailed to ${user.email}`
        : `Reset link for ${user.email} not mailed: ${sent.mailError}`,
    );
  });
}

/** Which account a reset link is for, before the new password is typed. */
export async function checkResetLink(deps: ServiceDeps, token: string): Promise<{ email: string }> {
  const record = await readToken(deps, 'password_reset', token);
  return { email: record.email };
}

/** Sets the password behind a link once, and signs that person out everywhere. */
export async function completePasswordReset(
  deps: ServiceDeps,
  ctx: RequestContext,
  token: string,
  password: string,
): Promise<void> {
  // Hashed before the token is spent: a slow hash must not leave a spent link and no password.
  const passwordHash = await hashPassword(password);
  const record = await spendToken(deps, 'password_reset', token);
  const user = record.userId === null ? null : await deps.repos.users.findById(record.userId);
  if (!user) throw notFound('Account');
  await setPasswordAndSignOut(deps, user, passwordHash);
  await audit(
    deps,
    { ...anonymousContext(ctx.ip, ctx.userAgent) },
    'auth.password_reset',
    { type: 'user', id: user.id },
    `${user.email} set a new password through a reset link; every session signed out`,
  );
}

/** The server-side command's way in (`pagewatch reset-password --password-stdin`). */
export async function setPasswordFromServer(
  deps: ServiceDeps,
  email: string,
  password: string,
): Promise<UserRecord> {
  const user = await deps.repos.users.findByEmail(email);
  if (!user) throw notFound(`An account for ${email}`);
  await setPasswordAndSignOut(deps, user, await hashPassword(password));
  await audit(
    deps,
    systemContext,
    'auth.password_reset',
    { type: 'user', id: user.id },
    `Password of ${user.email} set on the server (pagewatch reset-password); every session signed out`,
  );
  return user;
}

async function setPasswordAndSignOut(deps: ServiceDeps, user: UserRecord, passwordHash: string) {
  await deps.repos.users.update(user.id, { passwordHash }, deps.clock.now());
  await deps.repos.accountTokens.revokeOpen(
    'password_reset',
    { userId: user.id },
    deps.clock.now(),
  );
  await endUserSessions(deps, user.id);
}
