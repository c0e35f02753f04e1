import { Monitor, StatusPage, UnannouncedIncidents, type MonitorStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories, type Repositories } from '../../src/db/repositories/index.js';
import { pageTimes } from '../../src/status-pages/times.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { checkRun, downRun, maintenanceInput, monitorInput } from '../support/factories.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});
const anonymous = { authorization: '' };
const at = (iso: string) => Date.parse(iso);
const HOSTILE = '<img src=x onerror="alert(1)">&amp;';

describe('how a status page words its times', () => {
  const now = at('2026-12-01T08:00:00Z');
  it('writes a maintenance range as one phrase in the page zone, never two relative times', () => {
    const range = (s: string, e: string, zone = 'Europe/Berlin') =>
      pageTimes.range(at(s), at(e), zone, now);
    expect(range('2026-12-02T09:00:00Z', '2026-12-02T11:00:00Z')).toBe(
      'from Wed 2 Dec 10:00 to 12:00 (CET)',
    );
    expect(range('2026-12-02T21:00:00Z', '2026-12-03T01:30:00Z')).toBe(
      'from Wed 2 Dec 22:00 to Thu 3 Dec 02:30 (CET)',
    );
    // A clock change inside the window names each end's zone.
    expect(range('2027-03-28T00:30:00Z', '2027-03-28T02:00:00Z')).toBe(
      'from Sun 28 Mar 2027 01:30 (CET) to 04:00 (CEST)',
    );
    expect(range('2026-12-02T09:00:00Z', '2026-12-02T11:00:00Z', 'America/New_York')).toBe(
      'from Wed 2 Dec 04:00 to 06:00 (EST)',
    );
    expect(range('2026-12-02T09:00:00Z', '2026-12-02T11:00:00Z', 'Asia/Kolkata')).toBe(
      'from Wed 2 Dec 14:30 to 16:30 (GMT+5:30)',
    );
  });

  it('writes a moment with its zone and the year only when it is another one', () => {
    expect(pageTimes.at(at('2026-12-02T09:00:00Z'), 'UTC', now)).toBe('Wed 2 Dec, 09:00 UTC');
    expect(pageTimes.at(at('2025-12-02T09:00:00Z'), 'Europe/London', now)).toBe(
      'Tue 2 Dec 2025, 09:00 GMT',
    );
    expect(pageTimes.until(at('2026-12-01T11:00:00Z'), 'Europe/Berlin', now)).toBe(
      'until 12:00 (CET)',
    );
    expect(pageTimes.until(at('2026-12-02T11:00:00Z'), 'Europe/Berlin', now)).toBe(
      'until Wed 2 Dec 12:00 (CET)',
    );
  });
});

describe.each(engines)('status page truth on %s', (engine) => {
  let t: TestApp;
  let repos: Repositories;
  // 12:00 UTC: a window from 10:00 to 11:00 today is over, one next Sunday is ahead.
  const NOW = at('2026-12-02T12:00:00Z');

  beforeAll(async () => {
    t = await startTestApp({ engine, clock: { now: () => NOW } });
    repos = repositories(t.database);
  });
  afterAll(async () => t.stop());

  async function post<T>(url: string, body: unknown): Promise<T> {
    const res = await t.inject({ method: 'POST', url, ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<T>();
  }
  const monitor = async (name: string) =>
    Monitor.parse(await post('/api/v1/monitors', monitorInput({ name })));

  async function check(id: number, iso: string, status: MonitorStatus) {
    await repos.results.writeBatch([
      {
        monitorId: id,
        at: at(iso),
        run: status === 'down' ? downRun() : checkRun(),
        status,
        failures: status === 'down' ? 1 : 0,
        recent: [],
        flip: null,
      },
    ]);
  }

  const get = async (url: string) => {
    const res = await t.inject({ url, headers: anonymous });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  };

  /** The class of a component's last bar (today): '' up, m maintenance, d down. */
  function today(html: string, name: string): string {
    const block = html.split('<li class="comp">').find((b) => b.includes(`>${name}</h3>`));
    const bars = block?.match(/<div class="bars"[^>]*>(.*?)<\/div>/)?.[1] ?? '';
    const last = [...bars.matchAll(/<i( class=(\w))?[^>]*>/g)].at(-1);
    if (!last) throw new Error(`no bars for ${name}`);
    return last[2] ?? '';
  }

  it('shows today in maintenance when every failure fell inside the window, red otherwise', async () => {
    const inside = await monitor(`Inside ${engine}`);
    const outside = await monitor(`Outside ${engine}`);
    const ids = [inside.id, outside.id];
    await post(
      '/api/v1/maintenance',
      maintenanceInput({
        title: 'Database upgrade',
        timezone: 'Europe/Berlin',
        scope: { kind: 'monitors', monitorIds: ids },
        schedule: {
          kind: 'once',
          startsAt: '2026-12-02T10:00:00Z',
          endsAt: '2026-12-02T11:00:00Z',
        },
      }),
    );
    await post(
      '/api/v1/maintenance',
      maintenanceInput({
        title: HOSTILE,
        timezone: 'Europe/Berlin',
        scope: { kind: 'monitors', monitorIds: ids },
        schedule: {
          kind: 'once',
          startsAt: '2026-12-06T09:00:00Z',
          endsAt: '2026-12-06T11:00:00Z',
        },
      }),
    );
    for (const id of ids) {
      await check(id, '2026-12-02T09:00:00Z', 'up');
      await check(id, '2026-12-02T10:30:00Z', 'down');
      await check(id, '2026-12-02T11:30:00Z', 'up');
    }
    await check(outside.id, '2026-12-02T11:45:00Z', 'down');
    const page = await post<StatusPage>('/api/v1/status-pages', {
      slug: `truth-${engine}`,
      title: 'Truth',
      published: true,
      timeZone: 'Europe/Berlin',
      sections: [{ title: '', components: ids.map((monitorId) => ({ monitorId })) }],
    });
    expect(page.timeZone).toBe('Europe/Berlin');

    const html = await get(`/status/truth-${engine}`);
    expect(today(html, inside.name)).toBe('m');
    expect(today(html, outside.name)).toBe('d');
    // The next window, worded as a range in the page's zone, named; its title escaped.
    expect(html).toContain('from Sun 6 Dec 10:00 to 12:00 (CET)');
    expect(html).not.toMatch(/in \d+ days? to in/);
    expect(html).toContain('Times are in Europe/Berlin time (CET).');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;');
  });

  it('says “We’re looking into it” for a component down without a public word, until one is published', async () => {
    const m = await monitor(`Checkout ${engine}`);
    await check(m.id, '2026-12-02T11:50:00Z', 'down');
    await t.database.db
      .updateTable('monitors')
      .set({ status: 'down' })
      .where('id', '=', m.id)
      .execute();
    await post('/api/v1/status-pages', {
      slug: `looking-${engine}`,
      title: 'Looking',
      published: true,
      sections: [{ title: '', components: [{ monitorId: m.id, displayName: HOSTILE }] }],
    });
    const before = await get(`/status/looking-${engine}`);
    expect(before).toContain('<p class="cnote">We’re looking into it.</p>');
    expect(before).not.toContain('<img src=x');
    const json = JSON.parse(await get(`/status/looking-${engine}/index.json`)) as {
      sections: { components: { notice?: string }[] }[];
    };
    expect(json.sections[0]?.components[0]?.notice).toBe('We’re looking into it.');

    // Pagewatch's own incident has only internal notes: editors are asked to say something.
    const { id } = await post<{ id: number }>('/api/v1/incidents', {
      title: 'Checkout is down',
      message: 'Opened automatically: the monitor is down.',
      public: false,
      monitorIds: [m.id],
    });
    const asked = UnannouncedIncidents.parse(
      (await t.inject('/api/v1/status-pages/unannounced')).json(),
    ).items.find((i) => i.incidentId === id);
    expect(asked?.monitors).toEqual([{ id: m.id, name: m.name }]);
    expect(asked?.pages.map((p) => p.slug)).toEqual([`looking-${engine}`]);
    const viewer = await t.identity('viewer');
    const seen = await t.inject({
      url: '/api/v1/status-pages/unannounced',
      headers: viewer.headers,
    });
    expect(seen.statusCode).toBe(200);

    await post(`/api/v1/incidents/${id}/updates`, {
      state: 'identified',
      message: `Payments fail for some cards ${HOSTILE}`,
      public: true,
    });
    const left = UnannouncedIncidents.parse(
      (await t.inject('/api/v1/status-pages/unannounced')).json(),
    );
    expect(left.items.some((i) => i.incidentId === id)).toBe(false);
    // Pagewatch's own incident on the monitor is spoken for by the public one now.
    expect(left.items.some((i) => i.monitors.some((x) => x.id === m.id))).toBe(false);
    const after = await get(`/status/looking-${engine}`);
    expect(after).not.toContain('We’re looking into it.');
    expect(after).toContain('Payments fail for some cards &lt;img src=x');
  });

  it('refuses a time zone it does not know, next to the field', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      ...json({ slug: `zone-${engine}`, title: 'Zone', timeZone: 'Mars/Olympus' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('timeZone');
  });
});
