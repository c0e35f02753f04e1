import { JsonPath, type AssertionDraft } from '@pagewatch/contract';

/** What one Gatus condition became: a change to the monitor, or a reason it was not carried. */
export type ConditionEffect =
  | { kind: 'status'; codes: string[] }
  | { kind: 'assertion'; assertion: AssertionDraft }
  | { kind: 'latency'; maxMs: number }
  | { kind: 'certificate'; hours: number }
  /** `[DOMAIN_EXPIRATION] > 720h` on an HTTP endpoint: the domain registration option. */
  | { kind: 'domain'; hours: number }
  | { kind: 'dnsExpected'; value: string }
  /** Pagewatch checks it anyway (a connection, a DNS answer without error). */
  | { kind: 'implied' }
  | { kind: 'skipped'; reason: string };

const CONDITION = /^\s*(.+?)\s*(==|!=|<=|>=|<|>)\s*(.*?)\s*$/;
const FUNC = /^(pat|any)\((.*)\)$/s;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Gatus's `pat()` wildcard (`*` any run of characters) as an anchored regular expression. */
const wildcardRegex = (p: string) => `^${p.split('*').map(escapeRegex).join('.*')}$`;

/** `[STATUS] == pat(2*)`: the codes a wildcard accepts, as ranges (`2*` → 200-299). */
function statusPattern(p: string): string[] | null {
  const m = /^([1-5]\d{0,2})(\*|\?*)$/.exec(p.trim());
  if (!m) return null;
  const digits = m[1]!;
  if (digits.length === 3) return m[2] === '' ? [digits] : null;
  const span = 10 ** (3 - digits.length);
  const from = Math.max(100, Number(digits) * span);
  return [`${from}-${Number(digits) * span + span - 1}`];
}

function statusCodes(op: string, right: string): string[] | null {
  const fn = FUNC.exec(right);
  if (fn?.[1] === 'pat') return statusPattern(fn[2]!);
  if (fn?.[1] === 'any') {
    const codes = fn[2]!.split(',').map((s) => s.trim());
    return codes.every((c) => /^[1-5]\d\d$/.test(c)) ? codes : null;
  }
  if (!/^\d{3}$/.test(right)) return null;
  const n = Number(right);
  const range = (a: number, b: number) => (a > b ? null : a === b ? [`${a}`] : [`${a}-${b}`]);
  switch (op) {
    case '==':
      return n >= 100 && n <= 599 ? [right] : null;
    case '<':
      return range(100, Math.min(599, n - 1));
    case '<=':
      return range(100, Math.min(599, n));
    case '>':
      return range(Math.max(100, n + 1), 599);
    case '>=':
      return range(Math.max(100, n), 599);
    default:
      return null;
  }
}

/** Gatus's `[BODY].a.b[0]` as JSONPath (`$.a.b[0]`), or null when it is not a plain path. */
function jsonPathOf(placeholder: string): string | null {
  const rest = placeholder.slice('[BODY]'.length);
  const path = `$${rest}`;
  return JsonPath.safeParse(path).success ? path : null;
}

/** Go durations as Gatus writes them: `48h`, `1h30m`, `90m`, `3600s`. */
export function goDurationMs(text: string): number | null {
  const parts = /^(?:(\d+(?:\.\d+)?)(h|ms|m|s))+$/.test(text.trim())
    ? [...text.trim().matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)]
    : null;
  if (!parts) return null;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  return parts.reduce((sum, [, n, u]) => sum + Number(n) * unit[u!]!, 0);
}

function bodyCondition(op: string, right: string): ConditionEffect {
  const fn = FUNC.exec(right);
  if (op !== '==' && op !== '!=') {
    return { kind: 'skipped', reason: `Pagewatch compares a body as text, not with ${op}` };
  }
  const mode = op === '==' ? 'present' : 'absent';
  if (fn?.[1] === 'any') {
    const options = fn[2]!.split(',').map((s) => escapeRegex(s.trim()));
    const pattern = `^(?:${options.join('|')})$`;
    return { kind: 'assertion', assertion: { kind: 'regex', pattern, flags: 's', mode } };
  }
  const pattern = fn?.[1] === 'pat' ? wildcardRegex(fn[2]!) : `^${escapeRegex(right)}$`;
  return { kind: 'assertion', assertion: { kind: 'regex', pattern, flags: 's', mode } };
}

function jsonCondition(left: string, op: string, right: string): ConditionEffect {
  const path = jsonPathOf(left);
  if (path === null) {
    return { kind: 'skipped', reason: `${left} is not a JSON path Pagewatch can follow` };
  }
  if (op !== '==' || FUNC.test(right)) {
    return {
      kind: 'skipped',
      reason: `Pagewatch's JSON assertions test equals, contains and exists, not ${FUNC.test(right) ? `${FUNC.exec(right)![1]}()` : op}`,
    };
  }
  return { kind: 'assertion', assertion: { kind: 'json', path, op: 'equals', value: right } };
}

/** `has([BODY].x) == true` → exists; `== false` → not exists. */
function hasCondition(left: string, op: string, right: string): ConditionEffect {
  const inner = /^has\((\[BODY\].*)\)$/.exec(left)?.[1];
  const path = inner ? jsonPathOf(inner) : null;
  if (path === null || op !== '==' || !['true', 'false'].includes(right)) {
    return { kind: 'skipped', reason: 'Pagewatch has no assertion for this has() condition' };
  }
  const jsonOp = right === 'true' ? 'exists' : 'not_exists';
  return { kind: 'assertion', assertion: { kind: 'json', path, op: jsonOp, value: '' } };
}

/**
 * One Gatus condition (config/endpoint/condition.go) as what Pagewatch can check. Anything
 * without a faithful counterpart is `skipped` with the reason, so the report lists it.
 */
export function mapCondition(
  text: string,
  type: 'http' | 'tcp' | 'dns' | 'tls' | 'ping' | 'udp' | 'websocket' | 'grpc' | 'smtp',
): ConditionEffect {
  const m = CONDITION.exec(text);
  if (!m) return { kind: 'skipped', reason: 'Pagewatch cannot read this condition' };
  const [, left, op, right] = m as unknown as [string, string, string, string];
  if (left === '[CONNECTED]') {
    return op === '==' && right === 'true'
      ? { kind: 'implied' }
      : { kind: 'skipped', reason: 'Pagewatch has no monitor that is up when it cannot connect' };
  }
  if (left === '[RESPONSE_TIME]') {
    const n = Number(right);
    if (!/^\d+$/.test(right) || (op !== '<' && op !== '<=') || n < 2) {
      return { kind: 'skipped', reason: 'Pagewatch bounds the response time from above only' };
    }
    return { kind: 'latency', maxMs: Math.min(120_000, op === '<' ? n - 1 : n) };
  }
  if (left === '[CERTIFICATE_EXPIRATION]') {
    const ms = goDurationMs(right);
    if ((op !== '>' && op !== '>=') || ms === null) {
      return { kind: 'skipped', reason: 'Pagewatch warns of a certificate expiring within days' };
    }
    return { kind: 'certificate', hours: ms / 3_600_000 };
  }
  if (left === '[DOMAIN_EXPIRATION]') {
    const ms = goDurationMs(right);
    if ((op !== '>' && op !== '>=') || ms === null || type !== 'http') {
      return {
        kind: 'skipped',
        reason:
          type === 'http'
            ? 'Pagewatch warns of a domain registration expiring within days'
            : 'Pagewatch watches domain registrations on HTTP and domain monitors',
      };
    }
    return { kind: 'domain', hours: ms / 3_600_000 };
  }
  if (left === '[DNS_RCODE]') {
    return op === '==' && right === 'NOERROR' && type === 'dns'
      ? { kind: 'implied' }
      : {
          kind: 'skipped',
          reason: 'Pagewatch checks that a DNS answer has no error, no other code',
        };
  }
  if (type === 'dns' && left === '[BODY]' && op === '==' && !FUNC.test(right)) {
    return { kind: 'dnsExpected', value: right };
  }
  if (type !== 'http') {
    return { kind: 'skipped', reason: `Pagewatch's ${type} monitors cannot check ${left}` };
  }
  if (left === '[STATUS]') {
    const codes = statusCodes(op, right);
    return codes
      ? { kind: 'status', codes }
      : { kind: 'skipped', reason: 'Pagewatch accepts status codes as codes and ranges only' };
  }
  if (left === '[BODY]') return bodyCondition(op, right);
  if (left.startsWith('[BODY].') || left.startsWith('[BODY]['))
    return jsonCondition(left, op, right);
  if (left.startsWith('has(')) return hasCondition(left, op, right);
  return { kind: 'skipped', reason: `Pagewatch has no check for ${left.replace(/\(.*$/, '()')}` };
}
