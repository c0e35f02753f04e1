import {
  ChannelList,
  defaultAlertRules,
  Monitor,
  NotificationChannel,
  Problem,
} from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

describe.each(engines)('monitor alert settings on %s', (engine) => {
  let t: TestApp;
  let editor: Identity;
  let pager: NotificationChannel;
  let chat: NotificationChannel;

  async function channel(name: string, isDefault: boolean) {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/notification-channels',
      ...json({ kind: 'webhook', name, isDefault, config: { url: 'http://127.0.0.1:9/' } }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return NotificationChannel.parse(res.json());
  }

  async function save(body: unknown, id?: number) {
    return t.inject({
      method: id === undefined ? 'POST' : 'PUT',
      url: id === undefined ? '/api/v1/monitors' : `/api/v1/monitors/${id}`,
      ...json(body, editor.headers),
    });
  }

  beforeAll(async () => {
    t = await startTestApp({ engine });
    editor = await t.identity('editor');
    pager = await channel('Pager', true);
    chat = await channel('Chat', false);
  });
  afterAll(async () => t.stop());

  it('gives a new monitor the default rules and the default channels', async () => {
    const res = await save(monitorInput());
    expect(res.statusCode, res.body).toBe(201);
    const m = Monitor.parse(res.json());
    expect(m.alerts).toEqual(defaultAlertRules);
    expect(m.channelIds).toEqual([pager.id]);
  });

  it('stores the rules and channels given, and shows them back', async () => {
    const alerts = { afterChecks: 3, renotifyEveryChecks: 10, notifyDegraded: false };
    const res = await save(monitorInput({ alerts, channelIds: [chat.id, pager.id] }));
    const m = Monitor.parse(res.json());
    expect(m.alerts).toEqual({ ...defaultAlertRules, ...alerts });
    expect([...m.channelIds].sort()).toEqual([pager.id, chat.id].sort());
    const got = Monitor.parse((await t.inject(`/api/v1/monitors/${m.id}`)).json());
    expect(got.alerts).toEqual(m.alerts);
    expect(got.channelIds).toEqual(m.channelIds);
  });

  it('keeps the channels when an update leaves them out and replaces them when given', async () => {
    const m = Monitor.parse((await save(monitorInput({ channelIds: [chat.id] }))).json());
    const kept = Monitor.parse((await save(monitorInput({ name: 'Renamed' }), m.id)).json());
    expect(kept.channelIds).toEqual([chat.id]);
    const none = Monitor.parse((await save(monitorInput({ channelIds: [] }), m.id)).json());
    expect(none.channelIds).toEqual([]);
  });

  it('counts the monitors of each channel', async () => {
    const list = ChannelList.parse((await t.inject('/api/v1/notification-channels')).json());
    const counts = Object.fromEntries(
      list.items.map((c) => [c.name, 'monitorCount' in c ? c.monitorCount : -1]),
    );
    const monitors = (await t.inject('/api/v1/monitors')).json<{ items: { id: number }[] }>();
    let pagerLinks = 0;
    for (const { id } of monitors.items) {
      const m = Monitor.parse((await t.inject(`/api/v1/monitors/${id}`)).json());
      if (m.channelIds.includes(pager.id)) pagerLinks++;
    }
    expect(counts.Pager).toBe(pagerLinks);
  });

  it('refuses unknown channels and out-of-range rules, naming the field', async () => {
    const unknown = await save(monitorInput({ channelIds: [pager.id, 987_654] }));
    expect(unknown.statusCode).toBe(400);
    expect(Problem.parse(unknown.json()).errors).toEqual([
      expect.objectContaining({ path: 'channelIds', message: expect.stringContaining('987654') }),
    ]);
    const rules = await save({ ...monitorInput(), alerts: { afterChecks: 0, flapWindowS: 5 } });
    expect(rules.statusCode).toBe(400);
    expect(
      Problem.parse(rules.json())
        .errors?.map((e) => e.path)
        .sort(),
    ).toEqual(['alerts.afterChecks', 'alerts.flapWindowS']);
  });
});
