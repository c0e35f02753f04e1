import {
  OnCallNow,
  OnCallSchedule,
  OnCallTimeline,
  instantOfWallClock,
  wallClockAt,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});
const ZONE = 'Europe/Berlin';
const DAY = 86_400_000;

/** Today's date in Berlin, and the instant of midnight N days from it there. */
function berlinToday() {
  const w = wallClockAt(Date.now(), ZONE);
  const floating = Date.UTC(w.year, w.month - 1, w.day);
  return {
    date: new Date(floating).toISOString().slice(0, 10),
    midnight: (days: number) => instantOfWallClock(floating + days * DAY, ZONE),
  };
}

/** Issue 18 item 4 over the API: a weekly rota, who is on call now and next, overrides, feeds. */
describe.each(engines)('on-call schedules API on %s', (engine) => {
  let t: TestApp;
  let ana: Identity;
  let ben: Identity;
  let viewer: Identity;
  let schedule: OnCallSchedule;
  const today = berlinToday();

  beforeAll(async () => {
    t = await startTestApp({ engine });
    ana = await t.identity('editor', 'ana@example.com');
    ben = await t.identity('editor', 'Ben');
    viewer = await t.identity('viewer');
    for (const [who, name] of [
      [ana, 'Ana'],
      [ben, 'Ben'],
    ] as const) {
      await t.database.db.updateTable('users').set({ name }).where('id', '=', who.userId).execute();
    }
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/oncall-schedules',
      ...json({
        name: 'Web team',
        timeZone: ZONE,
        layers: [
          {
            name: 'Weekly',
            members: [ana.userId, ben.userId],
            startDate: today.date,
            handoff: '00:00',
            lengthDays: 7,
          },
        ],
      }),
    });
    expect(res.statusCode).toBe(201);
    schedule = OnCallSchedule.parse(res.json());
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('says who is on call now and who takes over at the next handoff (local midnight)', async () => {
    const res = await t.inject({
      url: `/api/v1/oncall-schedules/${schedule.id}/now`,
      headers: viewer.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = OnCallNow.parse(res.json());
    expect(body.now).toMatchObject({ userId: ana.userId, source: 'Weekly' });
    expect(body.next).toMatchObject({
      userId: ben.userId,
      start: new Date(today.midnight(7)).toISOString(),
    });
    expect(body.feedUrl).toMatch(new RegExp(`/ical/schedules/${schedule.id}/[\\w-]+\\.ics$`));
  });

  it('an override puts someone else on call; an overlapping one is refused, naming the other', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const added = await t.inject({
      method: 'POST',
      url: `/api/v1/oncall-schedules/${schedule.id}/overrides`,
      ...json({ userId: ben.userId, from, to }),
    });
    expect(added.statusCode).toBe(201);
    const now = OnCallNow.parse(
      (await t.inject(`/api/v1/oncall-schedules/${schedule.id}/now`)).json(),
    );
    expect(now.now).toMatchObject({ userId: ben.userId, source: 'override' });
    expect(now.next).toMatchObject({ userId: ana.userId, start: to });

    const overlapping = await t.inject({
      method: 'POST',
      url: `/api/v1/oncall-schedules/${schedule.id}/overrides`,
      ...json({
        userId: ana.userId,
        from: to,
        to: new Date(Date.now() + 7_200_000).toISOString(),
      }),
    });
    expect(overlapping.statusCode).toBe(201); // touching at the end is not overlapping
    const clash = await t.inject({
      method: 'POST',
      url: `/api/v1/oncall-schedules/${schedule.id}/overrides`,
      ...json({ userId: ana.userId, from, to }),
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail ?? clash.json().title).toContain('Ben');
  });

  it('refuses a schedule naming a person who does not exist', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/oncall-schedules',
      ...json({
        name: 'Ghosts',
        timeZone: ZONE,
        layers: [{ name: 'L', members: [ana.userId, 99_999], startDate: today.date }],
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('layers.0.members.1');
  });

  it('refuses two layers with the same name, pointing at the second', async () => {
    const layer = { members: [ana.userId], startDate: today.date };
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/oncall-schedules',
      ...json({
        name: 'Twins',
        timeZone: ZONE,
        layers: [
          { ...layer, name: 'Weekly' },
          { ...layer, name: ' weekly ' },
        ],
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(
      expect.objectContaining({ path: 'layers.1.name', message: 'Another layer has this name' }),
    );
  });

  it('shows the next days per layer and as a result, overrides included', async () => {
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/oncall-schedules/${schedule.id}`,
      ...json({
        name: 'Web team',
        timeZone: ZONE,
        layers: [
          {
            name: 'Weekly',
            members: [ana.userId, ben.userId],
            startDate: today.date,
            handoff: '00:00',
            lengthDays: 7,
          },
          {
            name: 'Weekend',
            members: [ben.userId],
            startDate: today.date,
            handoff: '00:00',
            lengthDays: 7,
            restriction: { days: [0, 6], from: '08:00', to: '20:00' },
          },
        ],
      }),
    });
    expect(put.statusCode).toBe(200);
    const res = await t.inject({
      url: `/api/v1/oncall-schedules/${schedule.id}/timeline?days=14`,
      headers: viewer.headers,
    });
    expect(res.statusCode).toBe(200);
    const tl = OnCallTimeline.parse(res.json());
    expect(Date.parse(tl.to) - Date.parse(tl.from)).toBe(14 * DAY);
    expect(tl.layers.map((l) => l.name)).toEqual(['Weekly', 'Weekend']);
    // The weekly layer alone: Ana until next week's midnight, then Ben, no overrides.
    const weekly = tl.layers[0]!.shifts;
    expect(weekly[0]).toMatchObject({ userName: 'Ana', source: 'Weekly' });
    expect(weekly[1]).toMatchObject({
      userName: 'Ben',
      start: new Date(today.midnight(7)).toISOString(),
    });
    // The weekend layer is active 08:00–20:00 Berlin on Saturdays and Sundays only.
    const weekend = tl.layers[1]!.shifts.filter((x) => x.userId !== null);
    expect(weekend.length).toBeGreaterThanOrEqual(3);
    for (const x of weekend) {
      const w = wallClockAt(Date.parse(x.start), ZONE);
      expect([0, 6]).toContain(new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay());
      if (Date.parse(x.start) > Date.parse(tl.from)) expect(w.hour).toBe(8);
    }
    // The result row carries the override added earlier and the weekend layer winning.
    expect(tl.final.some((x) => x.source === 'override' && x.userName === 'Ben')).toBe(true);
    expect(tl.final.some((x) => x.source === 'Weekend')).toBe(true);
    expect(tl.final.at(-1)!.end).toBe(tl.to);

    const tooLong = await t.inject(`/api/v1/oncall-schedules/${schedule.id}/timeline?days=99`);
    expect(tooLong.statusCode).toBe(400);
  });

  it('refuses to delete a schedule an escalation policy pages, naming the policy', async () => {
    const policy = await t.inject({
      method: 'POST',
      url: '/api/v1/escalation-policies',
      ...json({
        name: 'Nights',
        steps: [{ waitMinutes: 0, targets: [{ kind: 'schedule', scheduleId: schedule.id }] }],
      }),
    });
    expect(policy.statusCode).toBe(201);
    const refused = await t.inject({
      method: 'DELETE',
      url: `/api/v1/oncall-schedules/${schedule.id}`,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('“Nights”');
    expect((await t.inject(`/api/v1/oncall-schedules/${schedule.id}`)).statusCode).toBe(200);

    const spare = await t.inject({
      method: 'POST',
      url: '/api/v1/oncall-schedules',
      ...json({
        name: 'Spare',
        timeZone: ZONE,
        layers: [{ name: 'L', members: [ana.userId], startDate: today.date }],
      }),
    });
    const spareId = OnCallSchedule.parse(spare.json()).id;
    const gone = await t.inject({ method: 'DELETE', url: `/api/v1/oncall-schedules/${spareId}` });
    expect(gone.statusCode).toBe(204);
    expect((await t.inject(`/api/v1/oncall-schedules/${spareId}`)).statusCode).toBe(404);
  });

  it('serves the schedule’s and each person’s iCalendar feed to the secret URL only', async () => {
    const { feedUrl } = OnCallNow.parse(
      (await t.inject(`/api/v1/oncall-schedules/${schedule.id}/now`)).json(),
    );
    const feed = await t.inject({ url: feedUrl, headers: { authorization: '' } });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('text/calendar');
    expect(feed.body).toContain('BEGIN:VCALENDAR');
    expect(feed.body).toContain('SUMMARY:On call: Ana');
    expect(feed.body).toContain(
      `DTSTART:${new Date(today.midnight(7))
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '')}`,
    );
    const wrong = await t.inject({
      url: feedUrl.replace(/\w(\.ics)$/, (m, ext) => (m[0] === 'A' ? 'B' : 'A') + ext),
      headers: { authorization: '' },
    });
    expect(wrong.statusCode).toBe(404);

    const mine = await t.inject({ url: '/api/v1/oncall-schedules/my-feed', headers: ben.headers });
    const url = mine.json<{ url: string }>().url;
    expect(url).toMatch(new RegExp(`/ical/users/${ben.userId}/`));
    const benFeed = await t.inject({ url, headers: { authorization: '' } });
    expect(benFeed.statusCode).toBe(200);
    expect(benFeed.body).toContain('SUMMARY:On call: Ben');
    expect(benFeed.body).not.toContain('Ana');
  });

  it('only admins change schedules; viewers read them', async () => {
    const res = await t.inject({
      method: 'DELETE',
      url: `/api/v1/oncall-schedules/${schedule.id}`,
      headers: viewer.headers,
    });
    expect(res.statusCode).toBe(403);
    const list = await t.inject({ url: '/api/v1/oncall-schedules', headers: viewer.headers });
    expect(list.json().items).toHaveLength(1);
  });
});
