import type { DomainRegistration } from '@pagewatch/contract';
import { noPhases, type CheckRun } from '../../../domain/check-run.js';
import type { CheckContext } from '../types.js';
import { isTransient, type RdapClient, type Registration, rdapCacheTimes } from './client.js';
import type { RdapAnswer } from './rdap.js';
import { registeredDomain } from './registered-domain.js';

export { RdapClient, sharedRdapClient } from './client.js';

const DAY = 86_400_000;

export interface DomainCheckSpec {
  /** The host name typed; its registered domain is looked up. */
  domain: string;
  warnDays: number;
  timeoutMs: number;
}

type Good = Extract<RdapAnswer, { ok: true }>;

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How a registration's expiry reads against the warning days: what a certificate's does. */
export function judgeExpiry(
  good: Good,
  warnDays: number,
  now: number,
): Pick<CheckRun, 'outcome' | 'errorCode' | 'errorMessage'> {
  const left = good.expiresAt - now;
  if (left <= 0) {
    return {
      outcome: 'down',
      errorCode: 'domain_expired',
      errorMessage: `The registration of ${good.domain} expired on ${day(good.expiresAt)} (${plural(Math.floor(-left / DAY), 'day')} ago)`,
    };
  }
  if (left < warnDays * DAY) {
    return {
      outcome: 'degraded',
      errorCode: 'domain_expiring',
      errorMessage: `The registration of ${good.domain} expires on ${day(good.expiresAt)}, in ${plural(Math.floor(left / DAY), 'day')}`,
    };
  }
  return { outcome: 'up', errorCode: null, errorMessage: null };
}

export function registrationDetails(reg: Registration | null, domain: string): DomainRegistration {
  const shown = reg?.answer.ok ? reg.answer : (reg?.lastGood ?? null);
  const failed = reg && !reg.answer.ok ? reg.answer : null;
  return {
    domain,
    expiresAt: shown ? new Date(shown.expiresAt).toISOString() : null,
    registrar: shown?.registrar ?? null,
    server: reg?.answer.server ?? null,
    checkedAt: shown ? new Date(shown.at).toISOString() : null,
    errorCode: failed?.code ?? null,
    errorMessage: failed?.message ?? null,
  };
}

/**
 * What a registration says, or null when the lookup failed and no recent good answer stands in
 * (the caller decides what a failed lookup means for its monitor).
 */
export function judgeRegistration(
  reg: Registration,
  warnDays: number,
  now: number,
): Pick<CheckRun, 'outcome' | 'errorCode' | 'errorMessage'> | null {
  if (reg.answer.ok) return judgeExpiry(reg.answer, warnDays, now);
  const failed = reg.answer;
  // A registry that is busy or down says nothing new about the expiry date we already know.
  if (
    isTransient(failed.code) &&
    reg.lastGood !== null &&
    now - reg.lastGood.at <= rdapCacheTimes.staleUsable
  ) {
    return judgeExpiry(reg.lastGood, warnDays, now);
  }
  return null;
}

const base = {
  phases: noPhases,
  httpStatus: null,
  responseSize: null,
  certExpiresAt: null,
};

/**
 * A domain monitor's check: the registered domain's RDAP registration, judged like a
 * certificate (down once expired, degraded within `warnDays`). A registry that fails or
 * limits us only degrades the monitor (it says nothing about the domain) unless it says the
 * domain does not exist, or its TLD has no RDAP service at all.
 */
export async function runDomainCheck(
  spec: DomainCheckSpec,
  ctx: CheckContext,
  client: RdapClient,
): Promise<CheckRun> {
  const domain = registeredDomain(spec.domain);
  if (domain === null) {
    return {
      ...base,
      outcome: 'down',
      latencyMs: null,
      errorCode: 'rdap_unsupported',
      errorMessage: `${spec.domain} is not under a public suffix where names are registered (e.g. example.com, example.co.uk)`,
      details: {
        certificate: null,
        assertions: [],
        domain: registrationDetails(null, spec.domain),
      },
    };
  }
  const reg = await client.registration(domain, { timeoutMs: spec.timeoutMs, signal: ctx.signal });
  const now = ctx.now ?? Date.now();
  const details = { certificate: null, assertions: [], domain: registrationDetails(reg, domain) };
  const judged = judgeRegistration(reg, spec.warnDays, now);
  if (judged !== null) return { ...base, ...judged, latencyMs: reg.durationMs, details };
  const failed = reg.answer as Extract<RdapAnswer, { ok: false }>;
  return {
    ...base,
    outcome: isTransient(failed.code) ? 'degraded' : 'down',
    latencyMs: reg.durationMs,
    errorCode: failed.code,
    errorMessage: failed.message,
    details,
  };
}

/**
 * The HTTP monitor's domain expiry option, applied to its run: an expired registration takes
 * it down, an expiring one degrades an up run; a failed lookup changes nothing but is shown.
 */
export async function withDomainExpiry(
  run: CheckRun,
  url: string,
  warnDays: number,
  ctx: CheckContext,
  client: RdapClient,
): Promise<CheckRun> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return run;
  }
  const domain = registeredDomain(host);
  if (domain === null) return run;
  const reg = await client.registration(domain, { timeoutMs: 10_000, signal: ctx.signal });
  const details = {
    certificate: run.details?.certificate ?? null,
    assertions: run.details?.assertions ?? [],
    ...run.details,
    domain: registrationDetails(reg, domain),
  };
  const judged = judgeRegistration(reg, warnDays, ctx.now ?? Date.now());
  if (judged === null || judged.outcome === 'up' || run.outcome === 'down') {
    return { ...run, details };
  }
  if (judged.outcome === 'degraded' && run.outcome === 'degraded') return { ...run, details };
  return { ...run, ...judged, details };
}
