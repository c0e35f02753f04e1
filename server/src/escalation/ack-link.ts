import type { SecretBox } from '../lib/crypto.js';
import { safeEqual } from '../lib/crypto.js';

/** How long an acknowledgement link in a message works: a day covers a night's escalation. */
export const ACK_LINK_TTL_MS = 24 * 3_600_000;

export interface AckClaim {
  escalationId: number;
  /** The channel the link was sent through: it names who acknowledged. */
  channelId: number;
  /** Or the person's contact method it was sent to (ADR 60): the person acknowledged. */
  contactMethodId?: number;
  expiresAt: number;
}

const via = (c: AckClaim) =>
  c.contactMethodId === undefined ? String(c.channelId) : `p${c.contactMethodId}`;
const payload = (c: AckClaim) => `ack:${c.escalationId}:${via(c)}:${c.expiresAt}`;

/**
 * `<escalation>.<channel>.<expiry>.<HMAC>` with the instance key: nothing is stored per link,
 * a changed digit breaks the signature, and single use follows from the escalation itself (an
 * acknowledged escalation cannot be acknowledged again).
 */
export function signAckToken(box: SecretBox, claim: AckClaim): string {
  return `${claim.escalationId}.${via(claim)}.${claim.expiresAt}.${box.digest(payload(claim))}`;
}

export type AckTokenCheck =
  { ok: true; claim: AckClaim } | { ok: false; reason: 'invalid' | 'expired' };

export function verifyAckToken(box: SecretBox, token: string, now: number): AckTokenCheck {
  const m = /^(\d{1,15})\.(p?)(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!m) return { ok: false, reason: 'invalid' };
  const person = m[2] === 'p';
  const claim: AckClaim = {
    escalationId: Number(m[1]),
    channelId: person ? 0 : Number(m[3]),
    ...(person ? { contactMethodId: Number(m[3]) } : {}),
    expiresAt: Number(m[4]),
  };
  if (!safeEqual(box.digest(payload(claim)), m[5]!)) return { ok: false, reason: 'invalid' };
  if (claim.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claim };
}

export const ackPath = (token: string) => `/ack/${encodeURIComponent(token)}`;
