import { atLeast, Problem, roles, type Role } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { testEvent } from '../../src/notify/message.js';
import type { Access } from '../../src/http/route.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { maintenanceInput, monitorInput } from '../support/factories.js';
import { sessionFor, type BrowserSession } from './helpers.js';

const ACCESS: readonly Access[] = ['public', 'viewer', 'editor', 'admin', 'owner'];

/** The API routes SPEC §6/§7 leave open to anyone: first run, signing in, the API description. */
const PUBLIC_API = new Set([
  'GET /api/v1/auth/status',
  'POST /api/v1/auth/setup',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/login/totp',
  // Passkeys (ADR 50): the signed assertion is the proof; the options only carry a challenge.
  'POST /api/v1/auth/passkeys/sign-in/options',
  'POST /api/v1/auth/passkeys/sign-in',
  'POST /api/v1/auth/login/passkey/options',
  'POST /api/v1/auth/login/passkey',
  // Getting back in and joining (ADR 34): the link's token is the proof, the request the ask.
  'POST /api/v1/auth/password-reset/request',
  'POST /api/v1/auth/password-reset/check',
  'POST /api/v1/auth/password-reset',
  'POST /api/v1/auth/invitation/check',
  'POST /api/v1/auth/invitation/accept',
  'POST /api/v1/auth/email-change/confirm',
  // OIDC sign-in (ADR 48): the login page's buttons, the redirect to the provider and back.
  'GET /api/v1/auth/sign-in-options',
  'GET /api/v1/auth/oidc/:id/start',
  'GET /api/v1/auth/oidc/callback',
  'GET /api/v1/openapi.json',
  // The configuration files' JSON Schema, as public as the API document (editors fetch it).
  'GET /api/v1/config/schema.json',
]);

/**
 * SPEC §2 public pages and endpoints outside the JSON API (the push token is its own proof),
 * and the API reference page, as public as the document it shows.
 */
const PUBLIC_PAGES = [
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/metrics$/,
  /^\/status\//,
  /^\/badge\//,
  // Acknowledgement links in alerts (ADR 39): the signed token is the proof.
  /^\/ack\//,
  // On-call calendar feeds: the secret token in the URL is the credential (ADR 39).
  /^\/ical\//,
  // Customer links to a report: the random token in the URL is the credential (ADR 65).
  /^\/report\//,
  /^\/api\/docs(\/standalone\.js)?$/,
];
// The probe protocol (ADR 56): the probe's bearer token is the proof, checked by its routes.
const PUBLIC_PAGE_PREFIXES = ['/api/push/', '/api/probe/', '/*'];

/**
 * SPEC §6 by API resource: the least role that may read it and that may change it. A route
 * under a resource missing here fails the test until someone decides where it belongs.
 */
const SPEC6: Record<string, { read: Access; write: Access }> = {
  // One's own session, password and two-factor: anyone signed in.
  auth: { read: 'viewer', write: 'viewer' },
  events: { read: 'viewer', write: 'viewer' },
  monitors: { read: 'viewer', write: 'editor' },
  incidents: { read: 'viewer', write: 'editor' },
  maintenance: { read: 'viewer', write: 'editor' },
  'status-pages': { read: 'viewer', write: 'editor' },
  // Everyone manages their own keys; reaching others' keys is the service's (admin) check.
  'api-keys': { read: 'viewer', write: 'viewer' },
  users: { read: 'admin', write: 'admin' },
  // Names and addresses of active accounts, for editors choosing report recipients (ADR 65).
  people: { read: 'editor', write: 'admin' },
  // Invitations to join (ADR 34): managing people.
  invitations: { read: 'admin', write: 'admin' },
  audit: { read: 'admin', write: 'admin' },
  // Host names, pids and versions of the deployment's processes (Settings → Cluster).
  cluster: { read: 'admin', write: 'admin' },
  settings: { read: 'admin', write: 'admin' },
  'notification-channels': { read: 'admin', write: 'admin' },
  deliveries: { read: 'admin', write: 'admin' },
  // Everyone sees who is paged and how; policies are set up by admins, like channels (ADR 39).
  'escalation-policies': { read: 'viewer', write: 'admin' },
  // Acknowledging an outage is an editor's act, like posting an incident update.
  escalations: { read: 'viewer', write: 'editor' },
  // Who is on call is everyone's business; the rota is set by admins.
  'oncall-schedules': { read: 'viewer', write: 'admin' },
  // One's own contact methods and quiet hours (ADR 60): anyone signed in, for themselves.
  me: { read: 'viewer', write: 'viewer' },
  // Which policy a tag uses is routing like a monitor's own policy: editors (ADR 61).
  'escalation-tag-policies': { read: 'viewer', write: 'editor' },
  // Everyone sees the promises and their budgets; editors set them, like monitors (ADR 52).
  slos: { read: 'viewer', write: 'editor' },
  // Reports are read by everyone; sharing one with a customer is an editor's act (ADR 55).
  reports: { read: 'viewer', write: 'editor' },
  export: { read: 'admin', write: 'admin' },
  import: { read: 'admin', write: 'admin' },
  // Configuration as code: export, plan and apply are the export/import of SPEC §6.
  config: { read: 'admin', write: 'admin' },
  backup: { read: 'admin', write: 'admin' },
  // Locations and their probes' tokens (issue 16): probe hosts and versions are the deployment's.
  locations: { read: 'admin', write: 'admin' },
  probes: { read: 'admin', write: 'admin' },
};

const asGet = (method: string) => (method === 'HEAD' ? 'GET' : method);

/** Routes stricter than their resource's rule, each with its reason. */
const STRICTER: Record<string, Access> = {
  // Subscribers' addresses are personal data: only those who manage the page see them.
  'GET /api/v1/status-pages/:id/subscribers': 'editor',
  // SPEC §6: transferring ownership and deleting the instance's data are the owner's alone.
  'POST /api/v1/settings/transfer-ownership': 'owner',
  'POST /api/v1/settings/delete-all-data': 'owner',
  // Turning password sign-in off for all but the owner could lock admins out: the owner's call.
  'PUT /api/v1/settings/sign-in/policy': 'owner',
  // Report emails' recipients are personal data: those who may change the schedules see them.
  'GET /api/v1/reports/schedules': 'editor',
  'GET /api/v1/reports/schedules/:id': 'editor',
};

/**
 * Reads open to a lower role than their resource, where the service narrows the answer:
 * editors pick a monitor's channels (names only) and read one monitor's deliveries.
 */
const NARROWED: Record<string, Access> = {
  'GET /api/v1/notification-channels': 'editor',
  'GET /api/v1/deliveries': 'editor',
  // Every screen shows times in the instance's display time zone (ADR 27); changing it is admin.
  'GET /api/v1/settings': 'viewer',
  // Every edit form says "Managed by config" for the resources files manage (keys only).
  'GET /api/v1/config/managed': 'viewer',
};

/** What SPEC §6 says a route needs, or an explanation of why the test cannot tell. */
function expectedAccess(method: string, url: string): string {
  if (PUBLIC_API.has(`${asGet(method)} ${url}`)) return 'public';
  const stricter = STRICTER[`${asGet(method)} ${url}`];
  if (stricter) return stricter;
  const narrowed = NARROWED[`${asGet(method)} ${url}`];
  if (narrowed) return narrowed;
  if (url.startsWith('/api/v1/')) {
    const resource = url.split('/')[3] ?? '';
    const rule = SPEC6[resource];
    if (!rule) return `no SPEC §6 rule for the resource "${resource}": add it to SPEC6`;
    return method === 'GET' || method === 'HEAD' ? rule.read : rule.write;
  }
  if (PUBLIC_PAGES.some((p) => p.test(url)) || PUBLIC_PAGE_PREFIXES.some((p) => url.startsWith(p)))
    return 'public';
  return `${url} is neither API nor a known public page: classify it here`;
}

/** Bodies for routes whose handler must get past validation to show the caller got in. */
let seq = 0;
const BODIES: Record<string, () => unknown> = {
  'POST /api/v1/auth/setup': () => ({
    email: `setup-${++seq}@example.com`,
    name: 'Second owner',
    password: 'a long enough passphrase',
  }),
  // Empty: a 400 proves the route is open without counting a failed sign-in.
  'POST /api/v1/auth/login': () => ({}),
  'POST /api/v1/auth/login/totp': () => ({}),
  'POST /api/v1/auth/login/passkey': () => ({}),
  'POST /api/v1/auth/login/passkey/options': () => ({}),
  'POST /api/v1/auth/passkeys/sign-in': () => ({}),
  'POST /api/v1/auth/passkeys/register': () => ({}),
  'PATCH /api/v1/auth/passkeys/:id': () => ({ name: `Matrix passkey ${++seq}` }),
  'PUT /api/v1/auth/password': () => ({}),
  'POST /api/v1/auth/totp/confirm': () => ({ code: '000000' }),
  'POST /api/v1/auth/totp/disable': () => ({ password: 'not it', code: '000000' }),
  'POST /api/v1/users': () => ({
    email: `matrix-${++seq}@example.com`,
    name: 'Matrix person',
    role: 'viewer',
    password: 'a long enough passphrase',
  }),
  'PATCH /api/v1/users/:id': () => ({ name: `Renamed ${++seq}` }),
  // Empty: a 400 proves the route is open without counting a reset request.
  'POST /api/v1/auth/password-reset/request': () => ({}),
  'PATCH /api/v1/auth/me': () => ({ name: `Renamed ${++seq}` }),
  'POST /api/v1/invitations': () => ({ email: `invitee-${++seq}@example.com`, role: 'viewer' }),
  'POST /api/v1/users/:id/password': () => ({ password: `another long passphrase ${++seq}` }),
  'POST /api/v1/api-keys': () => ({ name: 'matrix key', role: 'viewer' }),
  'POST /api/v1/monitors': () => monitorInput(),
  'PUT /api/v1/monitors/:id': () => monitorInput(),
  'POST /api/v1/monitors/:id/clone': () => monitorInput(),
  'POST /api/v1/monitors/:id/corrections': () => ({
    startsAt: '2026-01-01T00:00:00.000Z',
    endsAt: '2026-01-01T01:00:00.000Z',
    reason: 'Matrix fixture',
  }),
  // A monitor that does not exist: answered 200 with it as not found, nothing else touched.
  'POST /api/v1/monitors/bulk': () => ({
    selection: { kind: 'ids', ids: [999_999] },
    action: { kind: 'pause' },
  }),
  'POST /api/v1/incidents/bulk-resolve': () => ({ ids: [999_999], message: 'Resolved' }),
  'POST /api/v1/notification-channels': () => webhookChannel(),
  'PUT /api/v1/notification-channels/:id': () => webhookChannel(),
  // Trials of unsaved forms reach only a refused loopback port; attaching links every monitor.
  'POST /api/v1/monitors/test': () => monitorInput(),
  'POST /api/v1/locations': () => ({ name: `Matrix location ${++seq}` }),
  'PUT /api/v1/locations/:id': () => ({ name: `Matrix location ${++seq}` }),
  'POST /api/v1/locations/:id/probes': () => ({ name: 'matrix probe' }),
  'POST /api/v1/probes/:id/rotate': () => ({}),
  'POST /api/v1/monitors/:id/test': () => monitorInput(),
  'PUT /api/v1/monitors/:id/locations': () => ({ locations: ['local'] }),
  'POST /api/v1/notification-channels/test': () => webhookChannel(),
  'POST /api/v1/notification-channels/:id/test-settings': () => webhookChannel(),
  'POST /api/v1/notification-channels/:id/attach': () => ({ scope: 'all' }),
  'POST /api/v1/incidents': () => ({ title: `Matrix incident ${++seq}`, message: 'Declared' }),
  'PATCH /api/v1/incidents/:id': () => ({ severity: 'minor' }),
  'POST /api/v1/incidents/:id/updates': () => ({ state: 'identified', message: 'Found it' }),
  'POST /api/v1/maintenance': () => maintenanceInput(),
  'PUT /api/v1/maintenance/:id': () => maintenanceInput(),
  'POST /api/v1/status-pages': () => ({ title: 'Matrix page', slug: `matrix-${++seq}` }),
  'PUT /api/v1/status-pages/:id': () => ({ title: 'Matrix page', slug: `matrix-put-${++seq}` }),
  'POST /api/v1/status-pages/preview': () => ({ slug: 'matrix', title: 'Matrix preview' }),
  'POST /api/v1/maintenance/preview': () => {
    const { timezone, schedule } = maintenanceInput();
    return { timezone, schedule };
  },
};

function webhookChannel() {
  return { kind: 'webhook', name: `Matrix ${++seq}`, config: { url: 'http://127.0.0.1:9/' } };
}

/** Routes that end the session they are called with: each call gets a fresh one. */
const ENDS_SESSION = new Set([
  'POST /api/v1/auth/logout',
  'POST /api/v1/auth/logout-all',
  'POST /api/v1/auth/oidc/logout',
]);

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

describe.each(engines)('SPEC §6 route permissions on %s', (engine) => {
  let t: TestApp;
  const keys = {} as Record<Role, Identity>;
  const sessions = {} as Record<Role, BrowserSession>;
  let targetUserId: number;

  beforeAll(async () => {
    t = await startTestApp({ engine, listen: true });
    await t.app.ready();
    for (const role of roles) keys[role] = role === 'owner' ? t.owner : await t.identity(role);
    for (const role of roles) sessions[role] = await sessionFor(t, keys[role].userId);
    targetUserId = (await t.identity('viewer')).userId;
  });
  afterAll(async () => t?.stop());

  const failedDelivery = (channelId: number) =>
    repositories(t.database).deliveryLog.insert({
      channelId,
      monitorId: null,
      event: testEvent(new Date()),
      state: 'failed',
      attempts: 6,
      createdAt: Date.now(),
    });

  /** A real HTTP call; an event stream is cut as soon as its status is known. */
  async function call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer> {
    const abort = new AbortController();
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'manual',
      signal: abort.signal,
    });
    const contentType = res.headers.get('content-type') ?? '';
    if (method === 'HEAD' || contentType.startsWith('text/event-stream')) {
      abort.abort();
      return { status: res.status, contentType, text: '' };
    }
    return { status: res.status, contentType, text: await res.text() };
  }

  /**
   * Fills `:id` with an object that exists: a fresh one where the call may consume it, made
   * by `role` where ownership matters (one's own API key).
   */
  async function fill(url: string, role: Role = 'owner'): Promise<string> {
    const resource = url.split('/')[3];
    let id: number;
    // Editors read deliveries one monitor at a time.
    if (url === '/api/v1/deliveries') return `${url}?monitorId=1`;
    if (!url.includes(':')) return url;
    // An unknown token: the push endpoint answers 404, never 401, to anyone.
    if (url.startsWith('/api/push/'))
      return url.replace(':token', 'A'.repeat(32)).replace(':signal', 'start');
    // Public pages answer 404 for an unknown page or monitor, to anyone.
    // An acknowledgement link that is not valid: a page saying so, to anyone.
    if (url.startsWith('/ack/')) return url.replace(':token', '1.1.1.forged-signature-0123456789');
    // A report link with an unknown token: the same 404 page to anyone (ADR 65).
    if (url.startsWith('/report/')) return url.replace(':token', 'A'.repeat(43));
    // A feed with a wrong token: 404 to anyone.
    if (url.startsWith('/ical/')) return url.replace(':id', '1').replace(':file', 'forged.ics');
    if (url.startsWith('/status/') || url.startsWith('/badge/'))
      return url
        .replace(':slug', 'no-such-page')
        .replace('*', 'history')
        .replace(':monitorId', '1')
        .replace(':file', 'status.svg');
    if (resource === 'monitors') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput(),
      });
      id = res.json<{ id: number }>().id;
    } else if (resource === 'api-keys') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/api-keys',
        headers: keys[role].headers,
        payload: { name: 'to revoke', role: 'viewer' },
      });
      id = res.json<{ apiKey: { id: number } }>().apiKey.id;
    } else if (resource === 'incidents') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/incidents',
        payload: { title: 'Matrix fixture', message: 'Declared' },
      });
      id = res.json<{ id: number }>().id;
    } else if (resource === 'maintenance') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/maintenance',
        payload: maintenanceInput(),
      });
      id = res.json<{ id: number }>().id;
    } else if (resource === 'status-pages') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/status-pages',
        payload: { title: 'Matrix fixture', slug: `matrix-fixture-${++seq}` },
      });
      id = res.json<{ id: number }>().id;
    } else if (resource === 'notification-channels' || resource === 'deliveries') {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/notification-channels',
        payload: webhookChannel(),
      });
      id = res.json<{ id: number }>().id;
      if (resource === 'deliveries') id = await failedDelivery(id);
    } else if (resource === 'escalation-policies') {
      // A fresh one each time: the call may delete it.
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/escalation-policies',
        payload: {
          name: `Matrix fixture ${++seq}`,
          steps: [{ waitMinutes: 0, targets: [{ kind: 'monitor_channels' }] }],
        },
      });
      id = res.json<{ id: number }>().id;
    } else if (resource === 'oncall-schedules') {
      // A fresh one each time: the call may delete it.
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/oncall-schedules',
        payload: {
          name: `Matrix fixture ${++seq}`,
          timeZone: 'Europe/Berlin',
          layers: [{ name: 'L', members: [targetUserId], startDate: '2026-01-05' }],
        },
      });
      id = res.json<{ id: number }>().id;
      if (url.includes(':overrideId')) {
        const o = await t.inject({
          method: 'POST',
          url: `/api/v1/oncall-schedules/${id}/overrides`,
          payload: {
            userId: targetUserId,
            from: '2026-01-05T00:00:00Z',
            to: '2026-01-06T00:00:00Z',
          },
        });
        const overrides = o.json<{ overrides: { id: number }[] }>().overrides;
        return url.replace(':id', String(id)).replace(':overrideId', String(overrides[0]!.id));
      }
    } else if (resource === 'reports' && url.includes(':id')) {
      // A fresh schedule or link each time: the call may delete or revoke it (ADR 65).
      const m = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput(),
      });
      const subject = { kind: 'monitor', id: String(m.json<{ id: number }>().id) };
      const res = url.includes('/schedules/')
        ? await t.inject({
            method: 'POST',
            url: '/api/v1/reports/schedules',
            payload: {
              name: `Matrix ${++seq}`,
              subject,
              formats: ['pdf'],
              emails: ['a@example.com'],
            },
          })
        : await t.inject({
            method: 'POST',
            url: '/api/v1/reports/links',
            payload: { name: `Matrix ${++seq}`, subject },
          });
      const body = res.json<{ id?: number; link?: { id: number } }>();
      id = body.id ?? body.link!.id;
    } else if (resource === 'slos') {
      // A fresh one each time: the call may delete it.
      const m = await t.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput(),
      });
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/slos',
        payload: {
          name: `Matrix fixture ${++seq}`,
          subject: { kind: 'monitor', monitorId: m.json<{ id: number }>().id },
          target: 99.9,
        },
      });
      id = res.json<{ id: number }>().id;
    } else if (url.includes('/oidc/') || url.includes('/sign-in/providers/')) {
      // Need not exist: access is decided first; then 404, or the login page for a sign-in.
      id = 1;
    } else if (
      resource === 'escalations' ||
      resource === 'me' ||
      url.startsWith('/api/v1/auth/passkeys/')
    ) {
      // Need not exist: access is decided before the lookup answers 404.
      id = 1;
    } else if (url.startsWith('/api/v1/invitations/')) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/invitations',
        payload: { email: `matrix-invitee-${++seq}@example.com`, role: 'viewer' },
      });
      id = res.json<{ invitation: { id: number } }>().invitation.id;
    } else if (resource === 'locations' || resource === 'probes') {
      // Fresh ones each time: the call may delete them.
      const l = await t.inject({
        method: 'POST',
        url: '/api/v1/locations',
        payload: { name: `Matrix fixture ${++seq}` },
      });
      const locationId = l.json<{ id: string }>().id;
      if (resource === 'locations') return url.replace(':id', locationId);
      const p = await t.inject({
        method: 'POST',
        url: `/api/v1/locations/${locationId}/probes`,
        payload: { name: 'matrix' },
      });
      id = p.json<{ probe: { id: number } }>().probe.id;
    } else if (resource === 'users') {
      // A fresh person each time: the call may delete them.
      id = url === '/api/v1/users/:id' ? (await t.identity('viewer')).userId : targetUserId;
    } else {
      throw new Error(`No fixture for the parameters of ${url}: add one to fill()`);
    }
    // A check id that need not exist: access is decided before the lookup answers 404.
    const filled = url
      .replace(':id', String(id))
      .replace(':checkId', '1')
      .replace(':subscriberId', '1')
      .replace(':correctionId', '1')
      .replace(':userId', String(targetUserId));
    if (filled.includes(':')) throw new Error(`Unfilled parameter in ${filled}: extend fill()`);
    return filled;
  }

  const isProblem = (a: Answer, status: number, type: string, method: string) =>
    a.status === status &&
    (method === 'HEAD' ||
      (a.contentType.startsWith('application/problem+json') &&
        Problem.safeParse(JSON.parse(a.text)).data?.type === type));

  it('every route declares an access rule, and it is the one SPEC §6 gives', () => {
    const routes = t.app.pagewatchRoutes;
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toContainEqual({ method: 'GET', url: '/api/v1/monitors', access: 'viewer' });
    const wrong: string[] = [];
    for (const r of routes) {
      const expected = expectedAccess(r.method, r.url);
      if (!ACCESS.includes(r.access)) wrong.push(`${r.method} ${r.url}: unknown rule ${r.access}`);
      else if (!(ACCESS as readonly string[]).includes(expected))
        wrong.push(`${r.method} ${r.url}: ${expected}`);
      else if (r.access !== expected)
        wrong.push(`${r.method} ${r.url}: declares ${r.access}, SPEC §6 says ${expected}`);
    }
    expect(wrong).toEqual([]);
    // The documented open API routes are the only open ones under /api/v1.
    const open = routes
      .filter((r) => r.url.startsWith('/api/v1/') && r.access === 'public')
      .map((r) => `${asGet(r.method)} ${r.url}`);
    expect(new Set(open)).toEqual(PUBLIC_API);
    for (const url of ['/healthz', '/readyz'])
      expect(routes).toContainEqual({ method: 'GET', url, access: 'public' });
  });

  it('without credentials, or with forged ones, every protected route answers 401', async () => {
    const failures: string[] = [];
    const forged: Record<string, Record<string, string>> = {
      none: {},
      'unknown key': { authorization: `Bearer pw_${'A'.repeat(40)}` },
      'malformed key': { authorization: 'Bearer not-a-key' },
      'basic auth': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      'unknown cookie': { cookie: 'pw_session=forged', 'x-csrf-token': 'forged' },
    };
    for (const r of t.app.pagewatchRoutes) {
      const path = await fill(r.url);
      const body = BODIES[`${r.method} ${r.url}`]?.();
      for (const [label, headers] of Object.entries(forged)) {
        const a = await call(r.method, path, headers, body);
        const where = `${r.method} ${r.url} with ${label}`;
        if (r.access === 'public') {
          if (a.status === 401) failures.push(`${where}: public route answered 401`);
        } else if (!isProblem(a, 401, 'unauthenticated', r.method)) {
          failures.push(`${where}: ${a.status} ${a.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it.each(['API key', 'session'] as const)(
    'with a %s of each role: below the route level 403, at or above it let through',
    async (credential) => {
      const failures: string[] = [];
      for (const r of t.app.pagewatchRoutes) {
        const route = `${r.method} ${r.url}`;
        for (const role of roles) {
          const path = await fill(r.url, role);
          let headers: Record<string, string> = keys[role].headers;
          if (credential === 'session') {
            const s = ENDS_SESSION.has(route)
              ? await sessionFor(t, keys[role].userId)
              : sessions[role];
            headers = s.headers;
          }
          const a = await call(r.method, path, headers, BODIES[route]?.());
          // Signing out everywhere also ends the session the other routes use.
          if (credential === 'session' && ENDS_SESSION.has(route))
            sessions[role] = await sessionFor(t, keys[role].userId);
          const where = `${route} as ${role} (${credential}): ${a.status} ${a.text.slice(0, 120)}`;
          if (r.access !== 'public' && !atLeast(role, r.access)) {
            if (!isProblem(a, 403, 'forbidden', r.method)) failures.push(where);
            continue;
          }
          if (a.status === 401) failures.push(where);
          // Setup after setup is refused by design; API keys have no session or password.
          const refusedByDesign =
            route === 'POST /api/v1/auth/setup' ||
            (credential === 'API key' && r.url.startsWith('/api/v1/auth/'));
          if (a.status === 403 && (!refusedByDesign || /needs the \w+ role/.test(a.text)))
            failures.push(where);
        }
      }
      expect(failures).toEqual([]);
    },
    // Every route × every role over real HTTP: a few seconds alone, much more on a busy box.
    120_000,
  );
});
