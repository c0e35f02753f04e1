import { createHash, randomBytes } from 'node:crypto';
import {
  ReportLinkInput,
  type ReportLink,
  type ReportLinkCreated,
  type ReportLinkRange,
  type ReportSubjectKind,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { addMonths, monthAt } from '../../domain/reports/months.js';
import { reportRange } from '../../domain/reports/range.js';
import type { ReportLinkRow } from '../../db/repositories/report-delivery.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import type { ReportRequest } from './build.js';
import { resolveSubject } from './subject.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** 32 random bytes, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const REPORT_LINK_PATH = '/report/';

export const hashLinkToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

type Parsed = ReturnType<typeof ReportLinkInput.parse>;

function stateOf(r: ReportLinkRow, now: number): ReportLink['state'] {
  if (r.revoked_at !== null) return 'revoked';
  if (r.expires_at !== null && Number(r.expires_at) <= now) return 'expired';
  return 'active';
}

export function presentLink(r: ReportLinkRow, now: number): ReportLink {
  return {
    id: Number(r.id),
    name: r.name,
    subject: { kind: r.subject_kind as ReportSubjectKind, id: r.subject_id },
    range: r.range_kind as ReportLinkRange,
    period: r.period,
    from: r.range_from,
    to: r.range_to,
    timeZone: r.time_zone,
    degradedIsDown: r.degraded_is_down === 1,
    expiresAt: iso(r.expires_at === null ? null : Number(r.expires_at)),
    revokedAt: iso(r.revoked_at === null ? null : Number(r.revoked_at)),
    lastViewedAt: iso(r.last_viewed_at === null ? null : Number(r.last_viewed_at)),
    state: stateOf(r, now),
    createdBy: r.created_by,
    createdAt: iso(Number(r.created_at))!,
  };
}

/** The report request a link stands for at `now` (a rolling link: the previous month). */
export function linkRequest(r: ReportLinkRow, now: number): ReportRequest {
  const base = {
    subject: r.subject_kind as ReportSubjectKind,
    id: r.subject_id,
    timeZone: r.time_zone,
    degradedIsDown: r.degraded_is_down === 1,
  };
  if (r.range_kind === 'last_month')
    return { ...base, range: 'month', period: addMonths(monthAt(now, r.time_zone), -1) };
  if (r.range_kind === 'custom')
    return { ...base, range: 'custom', from: r.range_from ?? '', to: r.range_to ?? '' };
  return { ...base, range: r.range_kind as 'month' | 'quarter', period: r.period ?? '' };
}

export async function listLinks(deps: ServiceDeps): Promise<ReportLink[]> {
  const now = deps.clock.now();
  return (await deps.repos.reportDelivery.links()).map((r) => presentLink(r, now));
}

/**
 * A read-only link for a customer. The token is random and shown once, in the answer's URL;
 * only its SHA-256 is stored, so a copy of the database opens no report. Audited.
 */
export async function createLink(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: Parsed,
): Promise<ReportLinkCreated> {
  const subject = await resolveSubject(deps, input.subject.kind, input.subject.id);
  const now = deps.clock.now();
  const expiresAt = input.expiresAt === null ? null : Date.parse(input.expiresAt);
  if (expiresAt !== null && expiresAt <= now)
    throw validationFailed([
      { path: 'expiresAt', message: 'Choose a time in the future', code: 'invalid_expiry' },
    ]);
  if (input.range !== 'last_month') {
    const req =
      input.range === 'custom'
        ? { kind: 'custom' as const, from: input.from ?? '', to: input.to ?? '' }
        : { kind: input.range, period: input.period ?? '' };
    const range = reportRange(req, input.timeZone);
    if (typeof range === 'string')
      throw validationFailed([{ path: 'range', message: range, code: 'invalid_range' }]);
  }
  const token = randomBytes(32).toString('base64url');
  const values = {
    token_hash: hashLinkToken(token),
    name: input.name,
    subject_kind: input.subject.kind,
    subject_id: input.subject.id,
    range_kind: input.range,
    period: input.range === 'month' || input.range === 'quarter' ? (input.period ?? null) : null,
    range_from: input.range === 'custom' ? (input.from ?? null) : null,
    range_to: input.range === 'custom' ? (input.to ?? null) : null,
    time_zone: input.timeZone,
    degraded_is_down: input.degradedIsDown ? 1 : 0,
    expires_at: expiresAt,
    revoked_at: null,
    last_viewed_at: null,
    created_by: ctx.actor.type === 'anonymous' ? 'anonymous' : ctx.actor.label,
    created_at: now,
  };
  const id = await deps.repos.reportDelivery.insertLink(values);
  await audit(
    deps,
    ctx,
    'report.link_created',
    { type: 'report_link', id },
    `Link "${input.name}" to the report of ${subject.name}` +
      (expiresAt === null ? '' : `, until ${iso(expiresAt)}`),
  );
  const root = (deps.publicUrl ?? '').replace(/\/+$/, '');
  return {
    link: presentLink({ id, ...values }, now),
    url: `${root}${REPORT_LINK_PATH}${token}`,
  };
}

export async function revokeLink(deps: ServiceDeps, ctx: RequestContext, id: number) {
  const row = await deps.repos.reportDelivery.link(id);
  if (!row) throw notFound('Report link');
  await deps.repos.reportDelivery.revokeLink(id, deps.clock.now());
  await audit(deps, ctx, 'report.link_revoked', { type: 'report_link', id }, `Link "${row.name}"`);
}

/** The link a token opens now, or null: unknown, tampered, revoked and expired look alike. */
export async function openLink(deps: ServiceDeps, token: string): Promise<ReportLinkRow | null> {
  if (!TOKEN.test(token)) return null;
  const row = await deps.repos.reportDelivery.linkByHash(hashLinkToken(token));
  if (!row || stateOf(row, deps.clock.now()) !== 'active') return null;
  return row;
}
