import net from 'node:net';
import nodemailer from 'nodemailer';
import { ChannelError } from '../../channel.js';
import { resolveAllowed } from '../../address-guard.js';
import type { OutboundContext } from '../../outbound.js';

/** An SMTP server as an email channel (or the status-page subscriber mailer) configures it. */
export interface SmtpServer {
  host: string;
  port: number;
  /** `starttls` requires the upgrade; `tls` is TLS from the first byte; `none` is plain. */
  security: 'starttls' | 'tls' | 'none';
  ignoreTlsErrors: boolean;
  /** Empty: no AUTH. */
  username: string;
  password?: string | undefined;
}

export interface OutgoingMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Without angle brackets; nodemailer makes one when absent. */
  messageId?: string;
  headers?: Record<string, string>;
  /** Files attached (monthly report emails: the PDF and the CSV). */
  attachments?: { filename: string; content: Buffer | string; contentType: string }[];
}

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

/** Auth failures and 5xx replies are permanent; 4xx replies and connection trouble are not. */
export function smtpError(err: unknown): ChannelError {
  if (err instanceof ChannelError) return err;
  const e = err as SmtpFailure;
  const text = (e.response ?? e.message ?? 'SMTP error').trim().slice(0, 300);
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH') {
    return new ChannelError(`authentication failed: ${text}`, true);
  }
  if (typeof e.responseCode === 'number') {
    return new ChannelError(`SMTP ${e.responseCode}: ${text}`, e.responseCode >= 500);
  }
  return new ChannelError(text, false);
}

/**
 * Sends one message through the server. The host is resolved and checked against the SSRF guard
 * first and the connection goes to that very address; TLS still verifies the configured name.
 */
export async function sendMail(
  server: SmtpServer,
  mail: OutgoingMail,
  ctx: OutboundContext,
): Promise<void> {
  const address = await resolveAllowed(server.host, ctx.egress);
  const transport = nodemailer.createTransport({
    host: address,
    port: server.port,
    ...(net.isIP(server.host) === 0 ? { servername: server.host } : {}),
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    auth: server.username ? { user: server.username, pass: server.password ?? '' } : undefined,
    tls: { rejectUnauthorized: !server.ignoreTlsErrors },
    connectionTimeout: ctx.timeoutMs,
    greetingTimeout: ctx.timeoutMs,
    socketTimeout: ctx.timeoutMs,
  });
  try {
    await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
      headers: mail.headers ?? {},
      ...(mail.attachments ? { attachments: mail.attachments } : {}),
    });
  } catch (err) {
    throw smtpError(err);
  } finally {
    transport.close();
  }
}
