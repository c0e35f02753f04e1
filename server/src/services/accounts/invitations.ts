import type {
  Invitation,
  InvitationAccept,
  InvitationCreate,
  InvitationInfo,
  InvitationSent,
  Role,
} from '@pagewatch/contract';
import { actorRole, canAssign, userContext, type RequestContext } from '../../domain/actor.js';
import type { AccountTokenRecord } from '../../db/repositories/account-tokens.js';
import type { UserRecord } from '../../db/repositories/users.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import { startSession, type StartedSession } from '../auth/sessions.js';
import type { ServiceDeps } from '../deps.js';
import { settingsOf } from '../settings/read.js';
import { appLink, sendAccountMail } from './system-mail.js';
import { issueToken, readToken, spendToken } from './tokens.js';

export const INVITE_PATH = '/invitation';

const emailTaken = (email: string) =>
  new AppError('conflict', `${email} already has an account`, [
    { path: 'email', message: 'This email already has an account', code: 'taken' },
  ]);

const presentInvitation = (r: AccountTokenRecord, now: number): Invitation => ({
  id: r.id,
  email: r.email,
  role: r.role as Role,
  invitedBy: r.createdByLabel,
  createdAt: new Date(r.createdAt).toISOString(),
  expiresAt: new Date(r.expiresAt).toISOString(),
  expired: r.expiresAt <= now,
});

function requireInviter(ctx: RequestContext, role: Role) {
  const mine = actorRole(ctx.actor);
  if (!mine) throw forbidden('Sign in to invite people');
  if (!canAssign(mine, role)) throw forbidden(`You cannot grant the ${role} role`);
  return ctx.actor.type === 'user' || ctx.actor.type === 'api_key'
    ? { id: ctx.actor.type === 'user' ? ctx.actor.id : null, label: ctx.actor.label }
    : { id: null, label: 'system' };
}

export async function listInvitations(deps: ServiceDeps): Promise<Invitation[]> {
  const now = deps.clock.now();
  return (await deps.repos.accountTokens.openInvitations()).map((r) => presentInvitation(r, now));
}

async function sendInvitation(
  deps: ServiceDeps,
  ctx: RequestContext,
  email: string,
  role: Role,
  base: string | null,
): Promise<InvitationSent> {
  const by = requireInviter(ctx, role);
  const now = deps.clock.now();
  // One live invitation per address: a new one replaces the old link.
  await deps.repos.accountTokens.revokeOpen('invitation', { email }, now);
  const { token, record } = await issueToken(deps, {
    kind: 'invitation',
    userId: null,
    email,
    role,
    createdBy: by.id,
    createdByLabel: by.label,
  });
  const link = appLink(deps.publicUrl ?? base, INVITE_PATH, token);
  const { instanceName } = await settingsOf(deps).get('general');
  const sent = await sendAccountMail(deps, {
    to: email,
    subject: `You are invited to ${instanceName} on Pagewatch`,
    lines: [
      `${by.label} invited you to ${instanceName} on Pagewatch as ${role === 'admin' || role === 'editor' || role === 'owner' ? 'an' : 'a'} ${role}.`,
      'Open the link to choose your name and password. It works once, for 7 days.',
    ],
    link,
    linkLabel: 'Accept the invitation',
  });
  await audit(
    deps,
    ctx,
    'user.invited',
    { type: 'invitation', id: record.id },
    `Invited ${email} as ${role}${sent.mailed ? '' : ` (not mailed: ${sent.mailError})`}`,
  );
  return { ...sent, invitation: presentInvitation(record, now), link };
}

/** Invites an address with a role up to the inviter's own; the link is mailed and answered. */
export async function createInvitation(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: InvitationCreate,
  base: string | null,
): Promise<InvitationSent> {
  requireInviter(ctx, input.role);
  if (await deps.repos.users.findByEmail(input.email)) throw emailTaken(input.email);
  return sendInvitation(deps, ctx, input.email, input.role, base);
}

async function openInvitation(deps: ServiceDeps, id: number): Promise<AccountTokenRecord> {
  const r = await deps.repos.accountTokens.findById(id);
  if (!r || r.kind !== 'invitation' || r.usedAt !== null || r.revokedAt !== null)
    throw notFound('Invitation');
  return r;
}

/** A new link (and 7 more days) for an open invitation; the old link stops working. */
export async function resendInvitation(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  base: string | null,
): Promise<InvitationSent> {
  const r = await openInvitation(deps, id);
  return sendInvitation(deps, ctx, r.email, r.role as Role, base);
}

export async function revokeInvitation(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const r = await openInvitation(deps, id);
  requireInviter(ctx, r.role as Role);
  if (!(await deps.repos.accountTokens.revoke(id, deps.clock.now()))) throw notFound('Invitation');
  await audit(
    deps,
    ctx,
    'user.invitation_revoked',
    { type: 'invitation', id },
    `Revoked the invitation of ${r.email}`,
  );
}

export async function checkInvitation(deps: ServiceDeps, token: string): Promise<InvitationInfo> {
  const r = await readToken(deps, 'invitation', token);
  return { email: r.email, role: r.role as Role, invitedBy: r.createdByLabel };
}

/** Creates the invited account with the name and password its person chose, and signs in. */
export async function acceptInvitation(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: InvitationAccept,
): Promise<{ user: UserRecord; session: StartedSession }> {
  const open = await readToken(deps, 'invitation', input.token);
  if (await deps.repos.users.findByEmail(open.email)) throw emailTaken(open.email);
  const passwordHash = await hashPassword(input.password);
  const r = await spendToken(deps, 'invitation', input.token);
  const user = await deps.repos.users.insertUnlessTaken(
    { email: r.email, name: input.name, role: r.role as Role, passwordHash },
    deps.clock.now(),
  );
  if (!user) throw emailTaken(r.email);
  await audit(
    deps,
    userContext(ctx, user),
    'user.invitation_accepted',
    { type: 'user', id: user.id },
    `${user.email} accepted the invitation of ${r.createdByLabel} and joined as ${user.role}`,
  );
  return { user, session: await startSession(deps, user, ctx) };
}
