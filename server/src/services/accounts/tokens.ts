import type { LinkProblem } from '@pagewatch/contract';
import type { AccountTokenKind, AccountTokenRecord } from '../../db/repositories/account-tokens.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** How long each kind of link works (ADR 34). */
export const LINK_LIFETIME_MS: Record<AccountTokenKind, number> = {
  password_reset: 60 * 60_000,
  invitation: 7 * 86_400_000,
  email_change: 24 * 60 * 60_000,
};

const messages: Record<LinkProblem, string> = {
  invalid: 'This link is not valid: copy the whole link from the message, or ask for a new one',
  expired: 'This link has expired: ask for a new one',
  used: 'This link was already used: ask for a new one if you still need it',
};

/** A 400 with the reason on the `token` field, so the screen can say what to do next. */
export const linkError = (problem: LinkProblem) =>
  validationFailed(
    [{ path: 'token', message: messages[problem], code: problem }],
    messages[problem],
  );

export interface IssuedToken {
  token: string;
  record: AccountTokenRecord;
}

export async function issueToken(
  deps: ServiceDeps,
  t: {
    kind: AccountTokenKind;
    userId: number | null;
    email: string;
    role?: string | null;
    createdBy: number | null;
    createdByLabel: string;
  },
): Promise<IssuedToken> {
  const token = randomToken();
  const now = deps.clock.now();
  const record = await deps.repos.accountTokens.insert({
    kind: t.kind,
    tokenHash: sha256(token),
    userId: t.userId,
    email: t.email,
    role: t.role ?? null,
    createdBy: t.createdBy,
    createdByLabel: t.createdByLabel,
    createdAt: now,
    expiresAt: now + LINK_LIFETIME_MS[t.kind],
  });
  return { token, record };
}

/** The live token behind a link, or the reason it no longer works. */
export async function readToken(
  deps: ServiceDeps,
  kind: AccountTokenKind,
  token: string,
): Promise<AccountTokenRecord> {
  const record = await deps.repos.accountTokens.findByHash(kind, sha256(token));
  if (!record || record.revokedAt !== null) throw linkError('invalid');
  if (record.usedAt !== null) throw linkError('used');
  if (record.expiresAt <= deps.clock.now()) throw linkError('expired');
  return record;
}

/** Spends a token once: of two requests with the same link, the second is told it was used. */
export async function spendToken(
  deps: ServiceDeps,
  kind: AccountTokenKind,
  token: string,
): Promise<AccountTokenRecord> {
  const record = await readToken(deps, kind, token);
  if (!(await deps.repos.accountTokens.spend(record.id, deps.clock.now()))) {
    await readToken(deps, kind, token);
    throw linkError('used');
  }
  return record;
}
