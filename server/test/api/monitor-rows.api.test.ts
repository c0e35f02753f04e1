import { Monitor, MonitorList, MonitorNames, MonitorRowPage, Problem } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { until } from '../support/until.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

// With the scheduler the pages come from the read model, without it from the database; the
// monitors are paused so the scheduler leaves them alone.
describe.each(engines.flatMap((e) => [[e, false] as const, [e, true] as const]))(
  'dashboard rows API on %s (read model: %s)',
  (engine, scheduler) => {
    let t: TestApp;
    const made: Monitor[] = [];
    beforeAll(async () => {
      t = await startTestApp({ engine, scheduler });
      for (let i = 0; i < 25; i++) {
        const res = await t.inject({
          method: 'POST',
          url: '/api/v1/monitors',
          ...json({
            type: 'http',
            name: `Row ${String(i).padStart(2, '0')}`,
            url: `http://127.0.0.1:9/${i}`,
            tags: i % 2 ? ['odd'] : ['even', 'prod'],
            paused: i % 5 === 0,
          }),
        });
        made.push(Monitor.parse(res.json()));
      }
      // The read model learns of a new monitor from its event, a moment after the answer.
      await until('the rows to count every monitor', async () => {
        const res = await t.inject({ url: '/api/v1/monitors/rows?limit=1' });
        return MonitorRowPage.parse(res.json()).total === 25 || undefined;
      });
    });
    afterAll(async () => t.stop());

    const page = async (query: string, headers?: Record<string, string>) => {
      const res = await t.inject({ url: `/api/v1/monitors/rows?${query}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return MonitorRowPage.parse(res.json());
    };

    it('pages by cursor through every monitor once, by name', async () => {
      const ids: number[] = [];
      let next: string | null = '';
      while (next !== null) {
        const p: MonitorRowPage = await page(
          `sort=name&limit=7${next ? `&cursor=${encodeURIComponent(next)}` : ''}`,
        );
        expect(p.items.length).toBeLessThanOrEqual(7);
        expect(p.total).toBe(25);
        ids.push(...p.items.map((i) => i.id));
        next = p.nextCursor;
      }
      expect(ids).toEqual(made.map((m) => m.id));
    });

    it('agrees with the full list, which stays as it was', async () => {
      const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
      const p = await page('limit=500');
      expect(p.counts).toEqual(list.counts);
      const full = new Map(list.items.map((i) => [i.id, i]));
      for (const row of p.items) {
        const { createdAt, updatedAt, interval, ...rest } = full.get(row.id)!;
        expect([createdAt, updatedAt, interval].every((v) => v !== undefined)).toBe(true);
        expect(row).toEqual(rest);
      }
      // Worst first: pending before paused.
      expect(p.items.at(0)?.status).toBe('pending');
      expect(p.items.at(-1)?.status).toBe('paused');
    });

    it('filters by status, tag, type and text on the server, counting the chips', async () => {
      const p = await page('tag=even&status=paused');
      expect(p.items.map((i) => i.name)).toEqual(['Row 00', 'Row 10', 'Row 20']);
      expect(p.total).toBe(3);
      expect(p.counts).toMatchObject({ paused: 3, pending: 10 });
      expect(p).toMatchObject({ all: 25, down: 0, tags: ['even', 'odd', 'prod'], types: ['http'] });
      expect((await page('q=row%201&type=http')).total).toBe(10);
      expect((await page('type=tcp')).items).toEqual([]);
    });

    it('names every monitor with its target, by name, for pickers', async () => {
      const viewer = await t.identity('viewer');
      const res = await t.inject({ url: '/api/v1/monitors/names', headers: viewer.headers });
      expect(res.statusCode).toBe(200);
      expect(MonitorNames.parse(res.json()).items).toEqual(
        made.map((m) => ({
          id: m.id,
          name: m.name,
          target: `http://127.0.0.1:9/${Number(m.name.slice(4))}`,
        })),
      );
    });

    it('lets a viewer read it and refuses what it does not understand', async () => {
      const viewer = await t.identity('viewer');
      expect((await page('limit=1', viewer.headers)).items).toHaveLength(1);
      for (const bad of ['limit=0', 'limit=501', 'sort=random', 'cursor=zzz', 'status=sad']) {
        const res = await t.inject({ url: `/api/v1/monitors/rows?${bad}` });
        expect(res.statusCode, bad).toBe(400);
        expect(Problem.parse(res.json()).type).toBe('validation_failed');
      }
      const anonymous = await t.inject({
        url: '/api/v1/monitors/rows',
        headers: { authorization: '' },
      });
      expect(anonymous.statusCode).toBe(401);
    });
  },
);
