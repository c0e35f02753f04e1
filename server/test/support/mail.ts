import type { TestApp } from './app.js';
import { SMTP_PASSWORD, SMTP_USER, type SmtpPeer } from '../fixtures/smtp-peer.js';

/** A raw message with quoted-printable soft breaks and escapes undone (enough for ASCII links). */
export const unfolded = (raw: string): string =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The token of the first link to `path` (`/reset-password#…`) in a received message. */
export function tokenIn(raw: string, path: string): string {
  const m = new RegExp(`(https?://[^\\s"<>]*)?${path}#([A-Za-z0-9_-]{20,})`).exec(unfolded(raw));
  if (!m) throw new Error(`no ${path} link in the message:\n${unfolded(raw).slice(0, 2000)}`);
  return m[2]!;
}

/** The whole link to `path` in a received message. */
export function linkIn(raw: string, path: string): string {
  const m = new RegExp(`https?://[^\\s"<>]*${path}#[A-Za-z0-9_-]{20,}`).exec(unfolded(raw));
  if (!m) throw new Error(`no ${path} link in the message`);
  return m[0];
}

/**
 * An email channel to the SMTP peer, chosen as the system mail channel (Settings → General);
 * returns its id.
 */
export async function useSystemMail(t: TestApp, smtp: SmtpPeer): Promise<number> {
  const channel = await t.inject({
    method: 'POST',
    url: '/api/v1/notification-channels',
    payload: {
      kind: 'email',
      name: 'System mail',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        security: 'starttls',
        ignoreTlsErrors: true,
        username: SMTP_USER,
        from: 'pagewatch@example.test',
        to: ['ops@example.test'],
      },
      secrets: { password: SMTP_PASSWORD },
    },
  });
  if (channel.statusCode !== 201) throw new Error(`channel: ${channel.body}`);
  const id = channel.json<{ id: number }>().id;
  const set = await t.inject({
    method: 'PUT',
    url: '/api/v1/settings',
    payload: { mail: { systemChannelId: id } },
  });
  if (set.statusCode !== 200) throw new Error(`settings: ${set.body}`);
  return id;
}
