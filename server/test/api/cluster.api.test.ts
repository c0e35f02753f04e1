import os from 'node:os';
import { ClusterOverview, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { until } from '../support/until.js';

describe.each(engines)('cluster API on %s', (engine) => {
  let t: TestApp;
  let admin: Identity;

  const overview = async (who: Identity) => {
    const res = await t.inject({ url: '/api/v1/cluster', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ClusterOverview.parse(res.json());
  };

  beforeAll(async () => {
    // With the scheduler: the process joins at start and, alone, takes every lease.
    t = await startTestApp({ engine, scheduler: true });
    admin = await t.identity('admin');
  });
  afterAll(async () => t?.stop());

  it('shows an admin this process holding all 1,024 partitions and every singleton', async () => {
    const self = t.cluster.member.id;
    const seen = await until('this process to hold every lease', async () => {
      const o = await overview(admin);
      const me = o.members.find((m) => m.id === self);
      return me?.partitions === 1024 && me.singletons.length === 9 ? o : undefined;
    });
    expect(seen.self).toBe(self);
    expect(seen.partitions).toEqual({ total: 1024, unowned: 0 });
    expect(seen.members).toHaveLength(1);
    const [me] = seen.members;
    expect(me).toMatchObject({
      id: self,
      name: `${os.hostname()}:${process.pid}`,
      roles: ['web', 'scheduler', 'notifier'],
      capacity: 1,
      partitions: 1024,
      singletons: [
        'alert-groups',
        'backups',
        'escalations',
        'housekeeping',
        'offline-locations',
        'report-months',
        'report-schedules',
        'retention',
        'slos',
      ],
    });
    // On the database's clock: the heartbeat is recent, and not after the clock read.
    expect(Math.abs(seen.databaseNow - Date.now())).toBeLessThan(60_000);
    expect(me!.heartbeatAgeMs).toBeLessThan(10_000);
    expect(Date.parse(me!.lastHeartbeat)).toBeLessThanOrEqual(seen.databaseNow);
    expect(Date.parse(me!.startedAt)).toBeLessThanOrEqual(Date.parse(me!.lastHeartbeat));
  });

  it('lists only live members and counts only live leases', async () => {
    const repo = repositories(t.database).cluster;
    // A process that died a minute ago: its row lingers until reaped, its lease has expired.
    await repo.register({ id: 'dead', name: 'gone:1', version: '0.0.9', capacity: 1, roles: [] });
    await t.database.db
      .updateTable('cluster_members')
      .set({ heartbeat_at: Date.now() - 60_000 })
      .where('id', '=', 'dead')
      .execute();
    const o = await overview(t.owner);
    expect(o.members.map((m) => m.id)).toEqual([t.cluster.member.id]);
    expect(o.partitions.total).toBe(1024);
  });

  it('refuses editors and viewers (403) and anyone not signed in (401)', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const res = await t.inject({
        url: '/api/v1/cluster',
        headers: (await t.identity(role)).headers,
      });
      expect(res.statusCode, role).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Problem.parse(res.json()).type).toBe('forbidden');
    }
    const anonymous = await t.inject({ url: '/api/v1/cluster', headers: { authorization: '' } });
    expect(anonymous.statusCode).toBe(401);
    expect(Problem.parse(anonymous.json()).type).toBe('unauthenticated');
  });
});
