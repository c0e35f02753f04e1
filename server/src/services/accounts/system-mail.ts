import { channelSchemas } from '@pagewatch/contract';
import { channelEgress } from '../../notify/address-guard.js';
import { sendMail } from '../../notify/channels/email/index.js';
import { escapeHtml } from '../../notify/message.js';
import { describeSendError } from '../notification-channels/test.js';
import { openSecrets } from '../notification-channels/secrets.js';
import { settingsOf } from '../settings/read.js';
import type { ServiceDeps } from '../deps.js';

const SEND_TIMEOUT_MS = 15_000;

export interface AccountMail {
  to: string;
  subject: string;
  /** Paragraphs of plain text; the link goes on a line of its own. */
  lines: string[];
  link: string;
  linkLabel: string;
}

export type MailResult = { mailed: true; mailError: null } | { mailed: false; mailError: string };

/** The email channel chosen in Settings → General, when it exists, is email and is enabled. */
export async function systemMailChannel(deps: ServiceDeps) {
  const { systemChannelId } = await settingsOf(deps).get('mail');
  if (systemChannelId === null) return null;
  const channel = await deps.repos.notificationChannels.findById(systemChannelId);
  return channel && channel.kind === 'email' && channel.enabled ? channel : null;
}

/**
 * Sends one account message (reset, invitation, email change) through the system mail channel
 * now, outside the alert outbox: a link is only worth something while its person waits for it.
 */
export async function sendAccountMail(deps: ServiceDeps, mail: AccountMail): Promise<MailResult> {
  const channel = await systemMailChannel(deps);
  if (!channel)
    return {
      mailed: false,
      mailError: 'No system mail channel is set (Settings → General → System mail)',
    };
  const config = channelSchemas.email.config.parse(channel.config);
  const secrets = openSecrets(channel, deps.secrets) as { password?: string };
  const text = `${mail.lines.join('\n\n')}\n\n${mail.linkLabel}:\n${mail.link}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif">` +
    mail.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.linkLabel)}</a></p>` +
    `<p style="color:#666;font-size:12px">Sent by Pagewatch</p></body></html>`;
  try {
    await sendMail(
      { ...config, password: secrets.password },
      { from: config.from, to: [mail.to], subject: mail.subject, text, html },
      {
        timeoutMs: SEND_TIMEOUT_MS,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        egress: channelEgress(deps.blockPrivateNotifyTargets ?? false),
      },
    );
    return { mailed: true, mailError: null };
  } catch (err) {
    return { mailed: false, mailError: describeSendError(err) };
  }
}

/**
 * A link to a screen of the app. Only PAGEWATCH_PUBLIC_URL or an origin the caller vouches for
 * (a signed-in admin's request) is used: a public request's Host header could point elsewhere.
 */
export function appLink(base: string | null | undefined, path: string, token: string): string {
  const root = (base ?? '').replace(/\/+$/, '');
  return `${root}${path}#${token}`;
}
