import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOidcPeer, type OidcPeer } from '../fixtures/oidc-provider.js';
import { anonymous, expectProblem, jsonAs, login } from '../security/helpers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { RedirectWalker } from '../support/oidc-browser.js';

interface ProviderView {
  id: number;
  redirectUri: string;
  clientSecretSet: boolean;
}

/*
 * OIDC sign-in against oidc-provider on loopback (issue 21): every hop is real HTTP, followed
 * by a cookie-keeping client. The app's clock may run ahead of the system's (token times).
 */
describe.each(engines)('OIDC sign-in on %s', (engine) => {
  let t: TestApp;
  let peer: OidcPeer;
  let offsetMs = 0;
  let seq = 0;
  const person = (account: Parameters<OidcPeer['accounts']['set']>[1]) => {
    const sub = `sub-${++seq}`;
    peer.accounts.set(sub, account);
    peer.signInAs = sub;
    return sub;
  };

  const providerBody = (over: Record<string, unknown> = {}) => ({
    name: 'Acme ID',
    issuer: peer.issuer,
    clientId: peer.clientId,
    clientSecret: peer.clientSecret,
    groupsClaim: 'groups',
    scopes: 'openid email profile groups',
    defaultRole: 'viewer',
    signUp: 'create',
    roleMappings: [
      { value: 'ops', role: 'admin' },
      { value: 'dev', role: 'editor' },
    ],
    allowedDomains: [],
    ...over,
  });

  let provider: ProviderView;
  // Provider writes come "from" the listening address: its redirect URI is the registered one.
  let host = '';
  const configure = async (over: Record<string, unknown> = {}) => {
    const res = await t.inject({
      method: 'PUT',
      url: `/api/v1/settings/sign-in/providers/${provider.id}`,
      ...jsonAs({ ...t.owner.headers, host }, providerBody(over)),
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** Runs a whole sign-in; answers where the app sent the browser at the end. */
  const signIn = async (rewrite?: (location: URL) => URL) => {
    const browser = new RedirectWalker();
    const { location } = await browser.walk(
      `${t.url}/api/v1/auth/oidc/${provider.id}/start?returnTo=/monitors`,
      {
        stop: (l) => l.origin === t.url && !l.pathname.startsWith('/api/'),
        ...(rewrite ? { rewrite } : {}),
      },
    );
    return { location, browser, error: location.searchParams.get('oidc_error') };
  };
  const me = async (browser: RedirectWalker) =>
    t.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { cookie: browser.cookieHeader(new URL(t.url)) },
    });

  beforeAll(async () => {
    peer = await startOidcPeer();
    t = await startTestApp({ engine, listen: true, clock: { now: () => Date.now() + offsetMs } });
    peer.setRedirectUris([`${t.url}/api/v1/auth/oidc/callback`], [`${t.url}/login`]);
    host = new URL(t.url).host;
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/settings/sign-in/providers',
      ...jsonAs({ ...t.owner.headers, host }, providerBody()),
    });
    expect(res.statusCode, res.body).toBe(201);
    provider = res.json<ProviderView>();
  }, 30_000);
  afterAll(async () => {
    await t?.stop();
    await peer?.close();
  });
  beforeEach(async () => {
    offsetMs = 0;
    peer.idTokenTtl = 3600;
    await configure();
  });

  it('a provider answers its redirect URI and never its client secret', async () => {
    // Without PAGEWATCH_PUBLIC_URL, the origin the admin's request reached.
    expect(provider.redirectUri).toBe(`${t.url}/api/v1/auth/oidc/callback`);
    expect(provider.clientSecretSet).toBe(true);
    const list = await t.inject('/api/v1/settings/sign-in/providers');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(peer.clientSecret);
    const options = await t.inject({
      url: '/api/v1/auth/sign-in-options',
      headers: anonymous,
    });
    expect(options.json()).toEqual({
      providers: [{ id: provider.id, name: 'Acme ID' }],
      passwordForEveryone: true,
    });
  });

  it('an issuer that cannot be discovered is refused at save with oidc_discovery_failed', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/settings/sign-in/providers',
      ...jsonAs(t.owner.headers, providerBody({ issuer: 'http://127.0.0.1:1/nowhere' })),
    });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.errors?.[0]).toMatchObject({ path: 'issuer', code: 'oidc_discovery_failed' });
  });

  it('a redirect URI the provider has not registered is refused at save, in its words', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/settings/sign-in/providers',
      ...jsonAs({ ...t.owner.headers, host: 'pagewatch.elsewhere.test' }, providerBody()),
    });
    const problem = expectProblem(res, 400, 'validation_failed');
    expect(problem.errors?.[0]).toMatchObject({
      path: 'clientId',
      code: 'oidc_redirect_uri_mismatch',
    });
    expect(problem.errors?.[0]?.message).toContain('redirect_uri');
  });

  it('a first sign-in creates the account with the mapped role; the next one re-applies the mapping', async () => {
    const email = `ops-${seq + 1}@example.com`;
    const sub = person({ email, email_verified: true, name: 'Ops Person', groups: ['ops'] });
    const first = await signIn();
    expect(first.error).toBeNull();
    expect(first.location.pathname).toBe('/monitors');
    const session = await me(first.browser);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toMatchObject({ user: { email, name: 'Ops Person', role: 'admin' } });

    peer.accounts.set(sub, { email, email_verified: true, name: 'Ops Person', groups: ['dev'] });
    const second = await signIn();
    expect(second.error).toBeNull();
    expect((await me(second.browser)).json()).toMatchObject({ user: { email, role: 'editor' } });
    // The first session carried the old role: it ended with the change.
    expect((await me(first.browser)).statusCode).toBe(401);

    const audit = await t.inject('/api/v1/audit?action=auth.login');
    expect(audit.body).toContain(`Signed in as ${email} through Acme ID (OIDC)`);
  });

  it('an existing account is linked only through a verified email', async () => {
    const existing = await t.identity('editor');
    person({ email: existing.email, email_verified: false, groups: [] });
    expect((await signIn()).error).toBe('oidc_email_unverified');
    peer.accounts.set(peer.signInAs, { email: existing.email, email_verified: true, groups: [] });
    const ok = await signIn();
    expect(ok.error).toBeNull();
    expect((await me(ok.browser)).json()).toMatchObject({
      user: { id: existing.userId, role: 'viewer' },
    });
  });

  it('refuses a domain outside the allowed ones and a missing email claim', async () => {
    await configure({ allowedDomains: ['example.com'] });
    person({ email: 'someone@elsewhere.org', email_verified: true });
    expect((await signIn()).error).toBe('oidc_domain_not_allowed');
    person({ email_verified: true, name: 'No Mail' });
    expect((await signIn()).error).toBe('oidc_email_missing');
  });

  it('invited only: refuses an uninvited person, lets an invited one in with the invitation', async () => {
    await configure({ signUp: 'invited', roleMappings: [] });
    const email = `invited-${seq + 1}@example.com`;
    person({ email, email_verified: true });
    expect((await signIn()).error).toBe('oidc_not_invited');
    const invite = await t.inject({
      method: 'POST',
      url: '/api/v1/invitations',
      ...jsonAs(t.owner.headers, { email, role: 'editor' }),
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const ok = await signIn();
    expect(ok.error).toBeNull();
    expect((await me(ok.browser)).json()).toMatchObject({ user: { email, role: 'editor' } });
  });

  it('refuses a tampered state, nonce or PKCE challenge', async () => {
    person({ email: `tamper-${seq + 1}@example.com`, email_verified: true });
    const toProvider = (l: URL) => l.origin === peer.issuer && l.pathname === '/auth';
    const state = await signIn((l) => {
      if (l.pathname === '/api/v1/auth/oidc/callback') l.searchParams.set('state', 'forged');
      return l;
    });
    expect(state.error).toBe('oidc_state_mismatch');
    const nonce = await signIn((l) => {
      if (toProvider(l)) l.searchParams.set('nonce', 'forged-nonce');
      return l;
    });
    expect(nonce.error).toBe('oidc_nonce_mismatch');
    const pkce = await signIn((l) => {
      if (toProvider(l))
        l.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
      return l;
    });
    expect(pkce.error).toBe('oidc_code_rejected');
    // A callback without the browser's flow cookie (another browser, or replayed).
    const replay = await fetch(`${t.url}/api/v1/auth/oidc/callback?code=x&state=y`, {
      redirect: 'manual',
    });
    expect(replay.headers.get('location')).toBe('/login?oidc_error=oidc_flow_missing');
  });

  it('refuses an expired ID token and one whose times do not fit the clock', async () => {
    person({ email: `clock-${seq + 1}@example.com`, email_verified: true });
    // A one-minute token read two minutes later (beyond the 30 s tolerance): expired.
    peer.idTokenTtl = 60;
    offsetMs = 2 * 60_000;
    expect((await signIn()).error).toBe('oidc_token_expired');
    // An hour-long token that reads as issued two hours ago: the clocks differ.
    peer.idTokenTtl = 3600;
    offsetMs = 2 * 3_600_000;
    expect((await signIn()).error).toBe('oidc_clock_skew');
    // The server's clock two hours behind: the token was issued in its future.
    offsetMs = -2 * 3_600_000;
    expect((await signIn()).error).toBe('oidc_clock_skew');
  });

  it('signs out here and at the provider (RP-initiated logout)', async () => {
    person({ email: `bye-${seq + 1}@example.com`, email_verified: true, groups: ['dev'] });
    const { browser, error } = await signIn();
    expect(error).toBeNull();
    const { csrfToken } = (await me(browser)).json<{ csrfToken: string }>();
    const out = await t.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/logout',
      headers: {
        host: new URL(t.url).host,
        cookie: browser.cookieHeader(new URL(t.url)),
        'x-csrf-token': csrfToken,
      },
    });
    expect(out.statusCode, out.body).toBe(200);
    const endSessionUrl = new URL(out.json<{ endSessionUrl: string }>().endSessionUrl);
    expect(endSessionUrl.origin).toBe(peer.issuer);
    expect(endSessionUrl.searchParams.get('id_token_hint')).toBeTruthy();
    expect(endSessionUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${t.url}/login`);
    expect((await me(browser)).statusCode).toBe(401);
    // The provider asks to confirm, then sends the browser back to the login page.
    const page = await browser.request(endSessionUrl);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const confirm = await browser.request(new URL(action, peer.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirm.status).toBe(303);
    const back = await browser.walk(new URL(confirm.headers.get('location')!, peer.issuer).href, {
      stop: (l) => l.origin === t.url,
    });
    expect(back.location.href).toBe(`${t.url}/login`);
  });

  it('a session begun at the provider counts as two-factor when every account must have one', async () => {
    const policy = (requireSecondFactor: boolean) =>
      t.inject({
        method: 'PUT',
        url: '/api/v1/settings',
        ...jsonAs(t.owner.headers, { security: { requireSecondFactor } }),
      });
    expect((await policy(true)).statusCode).toBe(200);
    try {
      person({ email: `mfa-${seq + 1}@example.com`, email_verified: true, groups: ['dev'] });
      const { browser, error } = await signIn();
      expect(error).toBeNull();
      const session = await me(browser);
      expect(session.json()).toMatchObject({ user: { secondFactorRequired: false } });
      const monitors = await t.inject({
        url: '/api/v1/monitors',
        headers: { cookie: browser.cookieHeader(new URL(t.url)) },
      });
      expect(monitors.statusCode, monitors.body).toBe(200);
    } finally {
      expect((await policy(false)).statusCode).toBe(200);
    }
  });

  it('password sign-in for the owner only: others are refused, the owner still gets in', async () => {
    const editor = await t.identity('editor');
    const set = (passwordSignIn: string) =>
      t.inject({
        method: 'PUT',
        url: '/api/v1/settings/sign-in/policy',
        ...jsonAs(t.owner.headers, { passwordSignIn }),
      });
    const admin = await t.identity('admin');
    const byAdmin = await t.inject({
      method: 'PUT',
      url: '/api/v1/settings/sign-in/policy',
      ...jsonAs(admin.headers, { passwordSignIn: 'owner_only' }),
    });
    expectProblem(byAdmin, 403, 'forbidden');
    expect((await set('owner_only')).statusCode).toBe(200);
    try {
      const refused = await t.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        ...jsonAs(anonymous, { email: editor.email, password: editor.password }),
      });
      expectProblem(refused, 403, 'forbidden');
      const options = await t.inject({ url: '/api/v1/auth/sign-in-options', headers: anonymous });
      expect(options.json()).toMatchObject({ passwordForEveryone: false });
      await login(t, t.owner.email, t.owner.password);
    } finally {
      expect((await set('everyone')).statusCode).toBe(200);
    }
  });
});
