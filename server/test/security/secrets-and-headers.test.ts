import http from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcPeer, type OidcPeer } from '../fixtures/oidc-provider.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';
import { anonymous, expectProblem, jsonAs, login, sessionCookieOf } from './helpers.js';

const codeNow = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

interface Answer {
  label: string;
  status: number;
  headers: Headers;
  text: string;
}

describe.each(engines)('secrets and security headers on %s', (engine) => {
  let t: TestApp;
  /** Every secret made below, by what it is; none may ever be in an API answer. */
  const secrets = new Map<string, string>();
  let sessionCookie: { cookie: string };
  let incidentId = 0;
  let windowId = 0;
  let statusPageId = 0;
  let channelId = 0;
  let policyId = 0;
  let scheduleId = 0;
  let oidcProviderId = 0;
  let oidcPeer: OidcPeer | undefined;
  let monitorId: number;
  let browserMonitorId: number;

  beforeAll(async () => {
    t = await startTestApp({ engine, listen: true });
    await t.app.ready();
    secrets.set("owner's password", t.owner.password);
    secrets.set("owner's API key", t.owner.headers.authorization.slice('Bearer '.length));

    // Two-factor for the owner: the secret, and the recovery codes shown once.
    let s = await login(t, t.owner.email, t.owner.password);
    const enrol = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/totp/enrol',
      headers: s.headers,
    });
    const { secret } = enrol.json<{ secret: string }>();
    secrets.set('TOTP secret', secret);
    const confirm = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/totp/confirm',
      ...jsonAs(s.headers, { code: codeNow(secret) }),
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    confirm
      .json<{ recoveryCodes: string[] }>()
      .recoveryCodes.forEach((c, i) => secrets.set(`recovery code ${i}`, c));
    const rotated = sessionCookieOf(confirm) ?? s.token;

    // A password change of one's own, a new person, and a reset of theirs.
    const me = await t.inject({
      url: '/api/v1/auth/me',
      headers: { cookie: `pw_session=${rotated}` },
    });
    s = {
      ...s,
      headers: {
        cookie: `pw_session=${rotated}`,
        'x-csrf-token': me.json<{ csrfToken: string }>().csrfToken,
      },
    };
    const next = 'the owner now uses this passphrase';
    const change = await t.inject({
      method: 'PUT',
      url: '/api/v1/auth/password',
      ...jsonAs(s.headers, { current: t.owner.password, next }),
    });
    expect(change.statusCode, change.body).toBe(204);
    secrets.set("owner's new password", next);
    const token = sessionCookieOf(change) ?? rotated;
    secrets.set('session token', token);
    sessionCookie = { cookie: `pw_session=${token}` };

    const person = await t.inject({
      method: 'POST',
      url: '/api/v1/users',
      ...jsonAs(t.owner.headers, {
        email: 'someone@example.com',
        name: 'Someone',
        role: 'editor',
        password: 'someone first passphrase',
      }),
    });
    expect(person.statusCode, person.body).toBe(201);
    secrets.set("a new person's password", 'someone first passphrase');
    const reset = await t.inject({
      method: 'POST',
      url: `/api/v1/users/${person.json<{ id: number }>().id}/password`,
      ...jsonAs(t.owner.headers, { password: 'someone reset passphrase' }),
    });
    expect(reset.statusCode).toBe(204);
    secrets.set('a reset password', 'someone reset passphrase');
    // A failed sign-in with a password-like guess lands in the audit log.
    await t.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      ...jsonAs(anonymous, { email: 'someone@example.com', password: 'guessed passphrase 9' }),
    });
    secrets.set('a guessed password', 'guessed passphrase 9');

    for (const role of ['viewer', 'admin'] as const) {
      const k = await t.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        ...jsonAs(t.owner.headers, { name: `${role} script`, role }),
      });
      secrets.set(`${role} API key`, k.json<{ secret: string }>().secret);
    }
    // Its basic-auth password and secret request headers are write-only, kept sealed.
    secrets.set('a monitor password', 'monitor basic passphrase 7');
    secrets.set('a monitor header value', 'monitor header key 11');
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({
        auth: { kind: 'basic', username: 'probe', password: 'monitor basic passphrase 7' },
        headers: [{ name: 'X-Api-Key', value: 'monitor header key 11' }],
      }),
    });
    monitorId = m.json<{ id: number }>().id;
    const sealed = await t.database.db
      .selectFrom('monitors')
      .select('secret')
      .where('id', '=', monitorId)
      .executeTakeFirstOrThrow();
    secrets.set('sealed monitor password', sealed.secret ?? 'missing');
    const sealedHeaders = await t.database.db
      .selectFrom('monitors')
      .select(['config', 'header_secrets'])
      .where('id', '=', monitorId)
      .executeTakeFirstOrThrow();
    expect(sealedHeaders.config).not.toContain('monitor header key 11');
    secrets.set('sealed monitor header values', sealedHeaders.header_secrets ?? 'missing');
    // A browser monitor's basic-auth password is the same kind of secret.
    secrets.set('a browser monitor password', 'browser basic passphrase 8');
    const b = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: {
        type: 'browser',
        name: 'Staging shop',
        url: 'http://127.0.0.1:9/shop',
        basicAuth: { username: 'probe', password: 'browser basic passphrase 8' },
        headers: [{ name: 'Cookie', value: 'browser header cookie 12' }],
      },
    });
    expect(b.statusCode, b.body).toBe(201);
    browserMonitorId = b.json<{ id: number }>().id;
    const browserSealed = await t.database.db
      .selectFrom('monitors')
      .select('secret')
      .where('id', '=', browserMonitorId)
      .executeTakeFirstOrThrow();
    expect(browserSealed.secret).toMatch(/^v1\./);
    secrets.set('sealed browser monitor password', browserSealed.secret!);
    secrets.set('a browser monitor header value', 'browser header cookie 12');
    const incident = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      payload: { title: 'Checkout is slow', severity: 'minor', message: 'Looking into it' },
    });
    expect(incident.statusCode).toBe(201);
    incidentId = incident.json<{ id: number }>().id;
    const window = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      payload: maintenanceInput(),
    });
    expect(window.statusCode).toBe(201);
    windowId = window.json<{ id: number }>().id;
    const statusPage = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      payload: { title: 'Acme status', slug: 'acme' },
    });
    expect(statusPage.statusCode).toBe(201);
    statusPageId = statusPage.json<{ id: number }>().id;
    const channel = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      payload: {
        kind: 'pushover',
        name: 'Phones',
        config: {},
        secrets: { appToken: 'pushover app token 9', userKey: 'pushover user key 10' },
      },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    channelId = channel.json<{ id: number }>().id;
    secrets.set('channel app token', 'pushover app token 9');
    secrets.set('channel user key', 'pushover user key 10');
    const channelSealed = await t.database.db
      .selectFrom('notification_channels')
      .select('secrets')
      .where('id', '=', channelId)
      .executeTakeFirstOrThrow();
    expect(channelSealed.secrets).toMatch(/^v1\./);
    secrets.set('sealed channel secrets', channelSealed.secrets!);

    // An OIDC sign-in provider (ADR 48): its client secret is write-only, kept sealed.
    oidcPeer = await startOidcPeer();
    oidcPeer.setRedirectUris([`${t.url}/api/v1/auth/oidc/callback`], []);
    const oidc = await t.inject({
      method: 'POST',
      url: '/api/v1/settings/sign-in/providers',
      headers: { host: new URL(t.url).host },
      payload: {
        name: 'Acme ID',
        issuer: oidcPeer.issuer,
        clientId: oidcPeer.clientId,
        clientSecret: 'oidc client secret 13',
      },
    });
    expect(oidc.statusCode, oidc.body).toBe(201);
    oidcProviderId = oidc.json<{ id: number }>().id;
    secrets.set('OIDC client secret', 'oidc client secret 13');
    const oidcSealed = await t.database.db
      .selectFrom('oidc_providers')
      .select('client_secret')
      .where('id', '=', oidcProviderId)
      .executeTakeFirstOrThrow();
    expect(oidcSealed.client_secret).toMatch(/^v1\./);
    secrets.set('sealed OIDC client secret', oidcSealed.client_secret!);

    // An escalation policy and an on-call schedule, so their routes are read too (ADR 39).
    const policy = await t.inject({
      method: 'POST',
      url: '/api/v1/escalation-policies',
      payload: {
        name: 'Phones first',
        steps: [{ waitMinutes: 0, targets: [{ kind: 'channel', channelId }] }],
      },
    });
    expect(policy.statusCode, policy.body).toBe(201);
    policyId = policy.json<{ id: number }>().id;
    // A contact method with a secret (ADR 60): its own list and the admins' view are read too.
    // The URL refuses connections on loopback, so the verification code goes nowhere.
    const slackSecret = 'http://127.0.0.1:9/slack-dm-secret-path-4f1c';
    secrets.set('contact method webhook URL', slackSecret);
    const method = await t.inject({
      method: 'POST',
      url: '/api/v1/me/contact-methods',
      payload: { kind: 'slack', config: {}, secrets: { webhookUrl: slackSecret } },
    });
    expect(method.statusCode, method.body).toBe(201);
    const schedule = await t.inject({
      method: 'POST',
      url: '/api/v1/oncall-schedules',
      payload: {
        name: 'Web team',
        timeZone: 'UTC',
        layers: [
          {
            name: 'Weekly',
            members: [t.owner.userId],
            startDate: '2026-11-23',
          },
        ],
      },
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    scheduleId = schedule.json<{ id: number }>().id;
    // A customer link to a report (ADR 65): its token is shown once; the database keeps a hash.
    const link = await t.inject({
      method: 'POST',
      url: '/api/v1/reports/links',
      payload: { name: 'For Acme', subject: { kind: 'monitor', id: String(monitorId) } },
    });
    expect(link.statusCode, link.body).toBe(201);
    secrets.set('report link token', link.json<{ url: string }>().url.split('/').at(-1)!);
    const linkRow = await t.database.db
      .selectFrom('report_links')
      .select('token_hash')
      .executeTakeFirstOrThrow();
    secrets.set('report link token hash', linkRow.token_hash);

    // What the database holds instead of the secrets: hashes and sealed values.
    const users = await t.database.db
      .selectFrom('users')
      .select(['password_hash', 'totp_secret', 'recovery_codes'])
      .execute();
    users.forEach((u, i) => {
      secrets.set(`password hash ${i}`, u.password_hash);
      if (u.totp_secret) secrets.set(`sealed TOTP secret ${i}`, u.totp_secret);
      (JSON.parse(u.recovery_codes) as string[]).forEach((h, j) =>
        secrets.set(`recovery code hash ${i}.${j}`, h),
      );
    });
    const keys = await t.database.db.selectFrom('api_keys').select('key_hash').execute();
    keys.forEach((k, i) => secrets.set(`API key hash ${i}`, k.key_hash));
    const sessions = await t.database.db.selectFrom('sessions').select('id_hash').execute();
    sessions.forEach((r, i) => secrets.set(`session id hash ${i}`, r.id_hash));
  });
  afterAll(async () => {
    await t?.stop();
    await oidcPeer?.close();
  });

  /**
   * A real HTTP call on its own connection; an event stream is read for its first chunk, then
   * the socket is destroyed (an aborted fetch would leave it for the keep-alive timeout).
   */
  function get(path: string, headers: Record<string, string>): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${t.url}${path}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        const done = () =>
          resolve({
            label: `GET ${path}`,
            status: res.statusCode ?? 0,
            headers: new Headers(
              Object.entries(res.headers).map(([k, v]) => [k, [v ?? ''].flat().join(', ')]),
            ),
            text: Buffer.concat(chunks).toString('utf8'),
          });
        const stream = res.headers['content-type']?.startsWith('text/event-stream');
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          if (stream) {
            req.destroy();
            done();
          }
        });
        res.on('end', done);
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
  }

  function leaks(a: Answer): string[] {
    const found: string[] = [];
    const headers = [...a.headers.entries()]
      .filter(([name]) => name !== 'set-cookie')
      .map(([n, v]) => `${n}: ${v}`)
      .join('\n');
    for (const [what, value] of secrets) {
      if (a.text.includes(value) || headers.includes(value)) found.push(`${a.label}: ${what}`);
    }
    if (a.text.includes('$argon2')) found.push(`${a.label}: an argon2 hash`);
    if (/"v1\.[A-Za-z0-9_-]{8,}\./.test(a.text)) found.push(`${a.label}: a sealed value`);
    return found;
  }

  it('the TOTP secret is stored sealed, never as its base32 text', async () => {
    const row = await t.database.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret', 'recovery_codes'])
      .where('id', '=', t.owner.userId)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secrets.get('TOTP secret'));
    expect(row.totp_pending_secret).toBeNull();
    for (const [what, value] of secrets)
      if (what.startsWith('recovery code ') && !what.includes('hash'))
        expect(row.recovery_codes).not.toContain(value);
  });

  it('no GET route answers with a password, key, TOTP secret, recovery code, hash or sealed value', async () => {
    // The scanner finds what it looks for: the one answer that shows a key is caught.
    const shown = await t.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      ...jsonAs(t.owner.headers, { name: 'shown once', role: 'viewer' }),
    });
    secrets.set('a key shown once', shown.json<{ secret: string }>().secret);
    const control = { label: 'POST', status: 201, headers: new Headers(), text: shown.body };
    expect(leaks(control)).toEqual(['POST: a key shown once']);
    expect(secrets.size).toBeGreaterThan(25);

    const routes = t.app.pagewatchRoutes.filter((r) => r.method === 'GET');
    expect(routes.length).toBeGreaterThan(10);
    const found: string[] = [];
    let scanned = 0;
    // A monitor's routes are read for the HTTP monitor and for the browser one.
    const concrete = routes.flatMap((r) =>
      r.url.includes('/monitors/:id')
        ? [monitorId, browserMonitorId].map((id) =>
            r.url.replace('/monitors/:id', `/monitors/${id}`),
          )
        : [r.url],
    );
    for (const url of concrete) {
      if (url.includes('*')) continue;
      const path = url
        .replace('/incidents/:id', `/incidents/${incidentId}`)
        .replace('/maintenance/:id', `/maintenance/${windowId}`)
        // A page without a logo: its logo's 404 is scanned too.
        .replace('/status-pages/:id', `/status-pages/${statusPageId}`)
        .replace(':subscriberId', '1')
        .replace('/status/:slug', '/status/acme')
        .replace('/notification-channels/:id', `/notification-channels/${channelId}`)
        .replace('/escalation-policies/:id', `/escalation-policies/${policyId}`)
        .replace('/oncall-schedules/:id', `/oncall-schedules/${scheduleId}`)
        // An unknown report schedule: its 404 is scanned too.
        .replace('/reports/schedules/:id', '/reports/schedules/1')
        .replace('/users/:userId/', `/users/${t.owner.userId}/`)
        .replace('/auth/oidc/:id', `/auth/oidc/${oidcProviderId}`)
        // Calendar feeds with a wrong token: their 404s are scanned too.
        .replace('/ical/schedules/:id', `/ical/schedules/${scheduleId}`)
        .replace('/ical/users/:id', `/ical/users/${t.owner.userId}`)
        // An unknown push token: its 404 is scanned too.
        .replace(':token', 'A'.repeat(32))
        .replace(':signal', 'start')
        // A check without a screenshot: its 404 is scanned too.
        .replace(':checkId', '1')
        // Unknown status pages and badges: their 404s are scanned too.
        .replace(':slug', 'no-such-page')
        .replace(':monitorId', String(monitorId))
        .replace(':file', 'status.svg')
        .replace('/status-pages/:id', '/status-pages/1')
        // Unknown SLOs, probes and corrections, and the built-in location: scanned as well.
        .replace('/slos/:id', '/slos/1')
        .replace('/locations/:id', '/locations/local')
        .replace('/probes/:id', '/probes/1')
        .replace(':correctionId', '1');
      if (path.includes(':')) throw new Error(`No fixture for ${url}: extend this test`);
      const query = path === '/api/v1/audit' ? '?limit=200' : '';
      for (const [who, headers] of [
        ['API key', t.owner.headers],
        ['session', sessionCookie],
      ] as const) {
        const a = await get(`${path}${query}`, headers);
        a.label += ` (${who})`;
        if (a.status >= 500) found.push(`${a.label}: ${a.status}`);
        found.push(...leaks(a));
        scanned++;
      }
    }
    expect(found).toEqual([]);
    expect(scanned).toBeGreaterThan(20);
    // The audit log was really read, and holds the events the secrets came with.
    const audit = await get('/api/v1/audit?limit=200', t.owner.headers);
    expect(audit.text).toContain('auth.totp_enabled');
    expect(audit.text).toContain('auth.login_failed');
  });

  it('error answers do not repeat secrets either', async () => {
    const cases = [
      // Wrong current password, and a too-common new one.
      t.inject({
        method: 'PUT',
        url: '/api/v1/auth/password',
        ...jsonAs(t.owner.headers, {
          current: secrets.get('a guessed password'),
          next: 'password',
        }),
      }),
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...jsonAs(anonymous, { email: t.owner.email, password: secrets.get('a guessed password') }),
      }),
      t.inject({
        method: 'POST',
        url: '/api/v1/users',
        ...jsonAs(t.owner.headers, {
          email: 'x@example.com',
          name: 'X',
          role: 'viewer',
          password: 'password123',
          extra: secrets.get('a guessed password'),
        }),
      }),
      // Broken JSON carrying a secret.
      t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: `{"email":"a@example.com","password":"${secrets.get('a guessed password')}"`,
        headers: { authorization: '', 'content-type': 'application/json' },
      }),
      // A key in the wrong place.
      t.inject({
        url: '/api/v1/monitors',
        headers: { authorization: `Bearer ${secrets.get('viewer API key')}x` },
      }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      for (const value of [
        secrets.get('a guessed password')!,
        'password123',
        secrets.get('viewer API key')!,
      ])
        expect(res.body).not.toContain(value);
    }
    const bad = await cases[0]!;
    expectProblem(bad, 400, 'validation_failed');
  });

  describe('headers', () => {
    function csp(h: Headers): Map<string, string[]> {
      const value = h.get('content-security-policy') ?? '';
      return new Map(
        value
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .filter((parts) => parts[0])
          .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
      );
    }

    it('every kind of answer carries CSP, nosniff and a referrer policy, and no HSTS over http', async () => {
      const answers = [
        await get('/api/v1/monitors', t.owner.headers),
        await get(`/api/v1/monitors/${monitorId}`, sessionCookie),
        await get('/api/v1/monitors', {}),
        await get('/api/v1/no-such-thing', t.owner.headers),
        await get('/healthz', {}),
        await get('/metrics', {}),
        await get('/api/v1/openapi.json', {}),
        await get('/api/v1/events', t.owner.headers),
        await get('/api/v1/monitors', { ...t.owner.headers, 'x-forwarded-proto': 'https' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 200, 200, 200, 200, 200]);
      for (const a of answers) {
        const policy = csp(a.headers);
        const where = `${a.label}: ${a.headers.get('content-security-policy')}`;
        expect(policy.get('script-src'), where).toContain("'self'");
        expect(policy.get('script-src'), where).not.toContain("'unsafe-inline'");
        expect(policy.get('script-src'), where).not.toContain("'unsafe-eval'");
        expect(policy.get('frame-ancestors'), where).toEqual(["'none'"]);
        expect(policy.get('object-src'), where).toEqual(["'none'"]);
        expect(a.headers.get('x-content-type-options'), a.label).toBe('nosniff');
        expect(a.headers.get('referrer-policy'), a.label).toBeTruthy();
        expect(a.headers.get('strict-transport-security'), a.label).toBeNull();
      }
    });
  });
});
