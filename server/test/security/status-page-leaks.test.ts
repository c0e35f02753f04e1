import { Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, maintenanceInput, monitorInput } from '../support/factories.js';
import { insertStatusPage } from '../support/status-pages.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

// Every payload in every field, within the 100-character limits of titles and names.
const XSS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '[x](javascript:a())',
  '</style><script>',
];
const evil = (what: string) => `${what}:${XSS.join('')}`;

/** Markup that would run if any payload came through unescaped. */
const EXECUTABLE = [
  /<script(?![^>]*src="\/status\/assets\/enhance\.js)/i,
  /<img[^>]*onerror/i,
  /href="javascript:/i,
  /<\/style><script(?! src="\/status\/assets)/i,
];

/** Values only the team may see; none may appear anywhere public. */
const PRIVATE = {
  host: 'secret-host-7f3a.internal',
  path: 'private-path-9c1e',
  header: 'hdr-value-5b2d',
  headerName: 'X-Secret-5e1f',
  body: 'body-secret-8e4f',
  user: 'user-secret-3a9c',
  password: 'pw-secret-1d7b',
  tag: 'tag-secret-6c2e',
  description: 'desc-secret-4f8a',
  error: 'err-secret-2b6d',
  internalName: 'internal-name-5d2a',
  offPage: 'offpage-monitor-7a1b',
  unpublished: 'unpublished-page-0e5c',
  privateUpdate: 'private-update-3c8e',
};

describe.each(engines)('status page leaks on %s', (engine) => {
  let t: TestApp;
  let slug: string;
  let incidentId: number;
  let autoIncidentId: number;
  let monitorIds: number[];

  async function monitor(overrides: Parameters<typeof monitorInput>[0]) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput(overrides)),
    });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json()).id;
  }

  beforeAll(async () => {
    t = await startTestApp({ engine });
    const repos = repositories(t.database);
    const secretive = await monitor({
      name: PRIVATE.internalName,
      url: `http://${PRIVATE.host}:9/${PRIVATE.path}`,
      headers: [{ name: PRIVATE.headerName, value: PRIVATE.header }],
      bodyType: 'raw',
      body: PRIVATE.body,
      method: 'POST',
      auth: { kind: 'basic', username: PRIVATE.user, password: PRIVATE.password },
      tags: [PRIVATE.tag],
      description: PRIVATE.description,
    });
    const named = await monitor({ name: evil('MON') });
    const offPage = await monitor({ name: PRIVATE.offPage });
    monitorIds = [secretive, named];
    await repos.results.writeBatch([
      {
        monitorId: secretive,
        at: Date.now(),
        run: downRun({ errorMessage: PRIVATE.error }),
        status: 'down',
        failures: 1,
        recent: [],
        flip: { from: 'pending', to: 'down' },
        firstFailure: { at: Date.now(), code: 'connect_refused', message: PRIVATE.error },
      },
      {
        monitorId: named,
        at: Date.now(),
        run: checkRun(),
        status: 'up',
        failures: 0,
        recent: [],
        flip: null,
      },
    ]);
    slug = `leaks-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      title: evil('TTL'),
      description: evil('DSC'),
      footer: evil('FTR'),
      theme: { accent: '#112233' },
      show: { currentLatency: true },
      sections: [
        {
          title: evil('SEC'),
          components: [
            { monitorId: secretive, displayName: evil('DSP'), description: evil('CMP') },
            { monitorId: named },
          ],
        },
      ],
    });
    await insertStatusPage(t.database, t.hub, {
      title: PRIVATE.unpublished,
      published: false,
      sections: [{ components: [{ monitorId: offPage }] }],
    });
    const declared = await t.inject({
      method: 'POST',
      url: '/api/v1/incidents',
      ...json({ title: evil('INC'), message: evil('UPD'), public: true, monitorIds }),
    });
    incidentId = declared.json<{ id: number }>().id;
    await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${incidentId}/updates`,
      ...json({ message: PRIVATE.privateUpdate, public: false }),
    });
    // The outage opened an incident titled with the monitor's own name; a public word about
    // it puts it on the page, under the page's name for the monitor.
    const auto = await t.inject({ url: `/api/v1/incidents?monitorId=${secretive}` });
    autoIncidentId = auto
      .json<{ items: { id: number; automatic: boolean }[] }>()
      .items.find((i) => i.automatic)!.id;
    const posted = await t.inject({
      method: 'POST',
      url: `/api/v1/incidents/${autoIncidentId}/updates`,
      ...json({ state: 'identified', message: 'We found the cause.', public: true }),
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const window = await t.inject({
      method: 'POST',
      url: '/api/v1/maintenance',
      ...json(
        maintenanceInput({
          title: evil('MNT'),
          description: PRIVATE.description,
          timezone: 'UTC',
          scope: { kind: 'monitors', monitorIds: [named] },
          schedule: {
            kind: 'once',
            startsAt: new Date(Date.now() + 3_600_000).toISOString(),
            endsAt: new Date(Date.now() + 7_200_000).toISOString(),
          },
        }),
      ),
    });
    expect(window.statusCode, window.body).toBe(201);
  });
  afterAll(async () => t.stop());

  async function everything() {
    const urls = [
      `/status/${slug}`,
      `/status/${slug}/history`,
      `/status/${slug}/incidents/${incidentId}`,
      `/status/${slug}/incidents/${autoIncidentId}`,
      `/status/${slug}/index.json`,
      `/status/${slug}/feed.atom`,
      `/status/${slug}/feed.rss`,
      ...monitorIds.flatMap((id) => [`/badge/${id}/status.svg`, `/badge/${id}/uptime-30d.svg`]),
    ];
    const out: { url: string; body: string; type: string }[] = [];
    for (const url of urls) {
      const res = await t.inject({ url, headers: { authorization: '' } });
      expect(res.statusCode, url).toBe(200);
      out.push({ url, body: res.body, type: String(res.headers['content-type']) });
    }
    return out;
  }

  it('shows every user-typed field, and none of them can execute', async () => {
    const pages = await everything();
    const page = pages[0]?.body ?? '';
    for (const field of ['TTL', 'DSC', 'FTR', 'SEC', 'DSP', 'CMP', 'INC', 'UPD', 'MNT', 'MON'])
      expect(page, field).toContain(`${field}:`);
    expect(page).toContain('MON:&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const { url, body, type } of pages) {
      if (type.startsWith('application/json')) {
        // Data, not markup: served as JSON with nosniff, so no browser renders it.
        expect(JSON.parse(body)).toBeTruthy();
        continue;
      }
      for (const pattern of EXECUTABLE) expect(body, `${url} ${pattern}`).not.toMatch(pattern);
    }
    const jsonRes = await t.inject({
      url: `/status/${slug}/index.json`,
      headers: { authorization: '' },
    });
    expect(jsonRes.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaks no private monitor value, unpublished page or private update anywhere public', async () => {
    for (const { url, body } of await everything()) {
      for (const [what, value] of Object.entries(PRIVATE))
        expect(body.toLowerCase(), `${what} in ${url}`).not.toContain(value.toLowerCase());
    }
  });

  it('says an automatic incident with the names the page shows', async () => {
    const res = await t.inject({
      url: `/status/${slug}/incidents/${autoIncidentId}`,
      headers: { authorization: '' },
    });
    expect(res.body).toContain('DSP:&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).toMatch(/DSP:[^<]*is down/);
    // The team still sees its own title.
    const own = await t.inject({ url: `/api/v1/incidents/${autoIncidentId}` });
    expect(own.json<{ title: string }>().title).toBe(`${PRIVATE.internalName} is down`);
  });
});
