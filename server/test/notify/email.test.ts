import { afterEach, describe, expect, it } from 'vitest';
import { channelEgress } from '../../src/notify/address-guard.js';
import { sendMail } from '../../src/notify/channels/email/index.js';
import { refusedPort } from '../fixtures/target-server.js';
import {
  SMTP_PASSWORD,
  SMTP_USER,
  startSmtpPeer,
  type SmtpPeer,
  type SmtpPeerOptions,
} from '../fixtures/smtp-peer.js';
import { downEvent, incidentEvent, send, sendContext, sendError, targetOf } from './support.js';

const peers: SmtpPeer[] = [];
async function peer(options?: SmtpPeerOptions): Promise<SmtpPeer> {
  const p = await startSmtpPeer(options);
  peers.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});

function emailTarget(port: number, config: Record<string, unknown> = {}, password?: string) {
  return targetOf(
    'email',
    {
      host: '127.0.0.1',
      port,
      security: 'starttls',
      ignoreTlsErrors: true,
      username: SMTP_USER,
      from: 'pagewatch@example.com',
      to: ['ops@example.com', 'oncall@example.com'],
      ...config,
    },
    password === undefined ? { password: SMTP_PASSWORD } : { password },
  );
}

/** The header's value in a raw message (unfolded). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1];
}

describe('email', () => {
  it('delivers over STARTTLS with AUTH: subject, text and HTML alternatives, thread headers', async () => {
    const p = await peer({ auth: true });
    await send(emailTarget(p.port), downEvent());
    expect(p.mails).toHaveLength(1);
    const mail = p.mails[0]!;
    expect(mail).toMatchObject({
      from: 'pagewatch@example.com',
      to: ['ops@example.com', 'oncall@example.com'],
      user: SMTP_USER,
      secure: true,
    });
    expect(header(mail.raw, 'Subject')).toBe('Shop API is down');
    expect(header(mail.raw, 'Content-Type')).toMatch(/^multipart\/alternative;/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(header(mail.raw, 'Message-ID')).toBe('<delivery-99@pagewatch>');
    expect(header(mail.raw, 'References')).toBe('<monitor-42@pagewatch>');
    expect(header(mail.raw, 'In-Reply-To')).toBe('<monitor-42@pagewatch>');
    expect(header(mail.raw, 'X-Pagewatch-Event')).toBe('monitor.down');
  });

  it('threads incident mail per incident', async () => {
    const p = await peer();
    await send(emailTarget(p.port, { username: '' }), incidentEvent('incident.created'));
    expect(header(p.mails[0]!.raw, 'References')).toBe('<incident-7@pagewatch>');
  });

  it('delivers over implicit TLS', async () => {
    const p = await peer({ implicitTls: true, auth: true });
    await send(emailTarget(p.port, { security: 'tls' }), downEvent());
    expect(p.mails[0]).toMatchObject({ secure: true, user: SMTP_USER });
  });

  it('delivers in plain text without TLS or AUTH when so configured', async () => {
    const p = await peer();
    await send(emailTarget(p.port, { security: 'none', username: '' }), downEvent());
    expect(p.mails[0]).toMatchObject({ secure: false, user: null });
  });

  it('refuses an untrusted certificate unless told to ignore TLS errors', async () => {
    const p = await peer();
    const err = await sendError(
      emailTarget(p.port, { ignoreTlsErrors: false, username: '' }),
      downEvent(),
    );
    expect(err.permanent).toBe(false);
    expect(p.mails).toHaveLength(0);
  });

  it('fails permanently on a wrong password', async () => {
    const p = await peer({ auth: true });
    const err = await sendError(emailTarget(p.port, {}, 'wrong'), downEvent());
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/^authentication failed: 535/);
    expect(p.mails).toHaveLength(0);
  });

  it('treats 5xx replies as permanent and 4xx as transient', async () => {
    const p = await peer();
    const target = emailTarget(p.port, { username: '' });
    p.rejectNextMessage(550, 'Mailbox unavailable');
    expect(await sendError(target, downEvent())).toMatchObject({
      permanent: true,
      message: 'SMTP 550: 550 Mailbox unavailable',
    });
    p.rejectNextMessage(451, 'Try again later');
    expect(await sendError(target, downEvent())).toMatchObject({
      permanent: false,
      message: 'SMTP 451: 451 Try again later',
    });
  });

  it('fails transiently when the server is down', async () => {
    const err = await sendError(
      emailTarget(await refusedPort()),
      downEvent(),
      sendContext({ timeoutMs: 2000 }),
    );
    expect(err.permanent).toBe(false);
  });

  it('refuses private SMTP hosts when blocked, and metadata addresses always', async () => {
    const p = await peer();
    const blocked = await sendError(
      emailTarget(p.port),
      downEvent(),
      sendContext({ egress: channelEgress(true) }),
    );
    expect(blocked).toMatchObject({
      permanent: true,
      message: 'refused: 127.0.0.1 is a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)',
    });
    const named = await sendError(
      emailTarget(p.port, { host: 'localhost' }),
      downEvent(),
      sendContext({ egress: channelEgress(true) }),
    );
    expect(named.message).toMatch(/^refused: localhost is a private address/);
    const metadata = await sendError(emailTarget(25, { host: '169.254.169.254' }), downEvent());
    expect(metadata).toMatchObject({
      permanent: true,
      message: 'refused: 169.254.169.254 is a link-local or cloud metadata address',
    });
    // A host in another spelling is resolved first, and the address judged.
    const decimal = await sendError(emailTarget(25, { host: '2852039166' }), downEvent());
    expect(decimal.message).toBe(
      'refused: 169.254.169.254 is a link-local or cloud metadata address',
    );
    expect(p.mails).toHaveLength(0);
  });

  it('exports sendMail for other mail with its own subject and bodies', async () => {
    const p = await peer({ auth: true });
    await sendMail(
      {
        host: '127.0.0.1',
        port: p.port,
        security: 'starttls',
        ignoreTlsErrors: true,
        username: SMTP_USER,
        password: SMTP_PASSWORD,
      },
      {
        from: 'status@example.com',
        to: ['reader@example.com'],
        subject: 'Confirm your subscription',
        text: 'Click',
        html: '<p>Click</p>',
      },
      { timeoutMs: 5000, egress: channelEgress(false) },
    );
    expect(header(p.mails[0]!.raw, 'Subject')).toBe('Confirm your subscription');
  });
});
