import { repositories } from '../../server/src/db/repositories/index.js';
import type { ResultWrite } from '../../server/src/db/repositories/results.js';
import {
  checkRun,
  downRun,
  maintenanceInput,
  monitorInput,
} from '../../server/test/support/factories.js';
import { queueDelivery } from '../../server/test/support/outbox.js';
import { insertStatusPage } from '../../server/test/support/status-pages.js';
import type { Identity, TestApp } from '../../server/test/support/app.js';

const DAY = 86_400_000;

export interface Seeded {
  monitors: { website: number; checkout: number; search: number; billing: number };
  incident: number;
  statusPage: number;
  channel: number;
}

/** 90 days, six checks a day; `bad(day)` of them fail; the last check says `last`. */
function history(id: number, bad: (day: number) => number, last: 'up' | 'degraded' | 'down') {
  const writes: ResultWrite[] = [];
  let prev: 'up' | 'degraded' | 'down' = 'up';
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const write = (at: number, status: 'up' | 'degraded' | 'down') => {
    writes.push({
      monitorId: id,
      at,
      run:
        status === 'down'
          ? downRun()
          : checkRun({ outcome: status, latencyMs: status === 'degraded' ? 2400 : 80 + (at % 50) }),
      status,
      failures: status === 'down' ? 1 : 0,
      recent: [],
      flip: status === prev ? null : { from: prev, to: status },
    });
    prev = status;
  };
  for (let d = 89; d >= 0; d--) {
    for (let h = 0; h < 6; h++)
      write(today - d * DAY + h * 3_600_000 + 1000, h < bad(d) ? 'down' : 'up');
  }
  // A day of hourly checks for the response time chart, then the current state.
  for (let h = 23; h > 0; h--) write(now - h * 3_600_000, 'up');
  write(now - 1000, last);
  return writes;
}

/**
 * What a working team's Pagewatch holds: a monitor down with an open incident, one degraded, one
 * in maintenance, a status page showing them, a channel with a failed delivery, people and keys.
 */
export async function seedScreens(app: TestApp, owner: Identity): Promise<Seeded> {
  const api = async <T>(method: string, url: string, payload?: unknown): Promise<T> => {
    const res = await app.inject({
      method: method as 'POST',
      url,
      headers: owner.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
    return res.json<T>();
  };
  const monitor = async (name: string) =>
    (await api<{ id: number }>('POST', '/api/v1/monitors', monitorInput({ name, interval: 3600 })))
      .id;

  const channel = (
    await api<{ id: number }>('POST', '/api/v1/notification-channels', {
      kind: 'webhook',
      name: 'Ops webhook',
      isDefault: true,
      config: { url: 'http://127.0.0.1:9/hook' },
    })
  ).id;
  const monitors = {
    website: await monitor('Website'),
    checkout: await monitor('Checkout API'),
    search: await monitor('Search'),
    billing: await monitor('Billing'),
  };
  await repositories(app.database).results.writeBatch([
    ...history(monitors.website, () => 0, 'up'),
    ...history(monitors.checkout, (d) => (d < 1 ? 3 : d % 23 === 4 ? 1 : 0), 'down'),
    ...history(monitors.search, (d) => (d % 17 === 3 ? 2 : 0), 'degraded'),
    ...history(monitors.billing, () => 0, 'up'),
  ]);

  const now = Date.now();
  await api('POST', '/api/v1/maintenance', {
    ...maintenanceInput({ title: 'Billing database upgrade' }),
    scope: { kind: 'monitors', monitorIds: [monitors.billing] },
    schedule: {
      kind: 'once',
      startsAt: new Date(now - 600_000).toISOString(),
      endsAt: new Date(now + 7_200_000).toISOString(),
    },
  });
  await api('POST', '/api/v1/maintenance', maintenanceInput({ title: 'Weekly patching' }));

  const incident = (
    await api<{ id: number }>('POST', '/api/v1/incidents', {
      title: 'Checkout failing for some customers',
      message: 'Payments time out; we are investigating.',
      monitorIds: [monitors.checkout],
    })
  ).id;
  await api('POST', `/api/v1/incidents/${incident}/updates`, {
    state: 'identified',
    message: 'A payment provider is rate limiting us; a fix is rolling out.',
  });
  const old = (
    await api<{ id: number }>('POST', '/api/v1/incidents', {
      title: 'Search slower than usual',
      severity: 'minor',
      message: 'Index rebuild in progress.',
      monitorIds: [monitors.search],
    })
  ).id;
  await api('POST', `/api/v1/incidents/${old}/updates`, { state: 'resolved', message: 'Done.' });

  const statusPage = await insertStatusPage(app.database, app.hub, {
    slug: 'acme',
    title: 'Acme Cloud',
    description:
      'Live status of **Acme Cloud**. Questions? Write to [support](mailto:help@example.com).',
    footer: '© Acme Cloud Ltd — all times UTC',
    subscriptions: { email: true, webhook: true },
    show: { currentLatency: true, latencyChart: true },
    sections: [
      {
        title: 'Core services',
        components: [
          { monitorId: monitors.website, displayName: '', description: 'Marketing site and docs' },
          { monitorId: monitors.checkout, displayName: 'Checkout' },
          { monitorId: monitors.search, displayName: '' },
        ],
      },
      { title: 'Back office', components: [{ monitorId: monitors.billing, displayName: '' }] },
    ],
  });

  const sent = await queueDelivery(app.database, channel, 'seed-1', 'monitor.up', now - 60_000);
  const failed = await queueDelivery(app.database, channel, 'seed-2', 'monitor.down', now);
  await app.database.db
    .updateTable('deliveries')
    .set({ state: 'sent', attempts: 1 })
    .where('id', '=', sent)
    .execute();
  await app.database.db
    .updateTable('deliveries')
    .set({ state: 'failed', attempts: 5, last_error: 'connect ECONNREFUSED 127.0.0.1:9' })
    .where('id', '=', failed)
    .execute();

  await api('POST', '/api/v1/users', {
    email: 'eddie@example.com',
    name: 'Eddie Editor',
    role: 'editor',
    password: 'a long enough passphrase',
  });
  await api('POST', '/api/v1/api-keys', { name: 'CI deploys', role: 'editor', expiresAt: null });
  return { monitors, incident, statusPage, channel };
}
