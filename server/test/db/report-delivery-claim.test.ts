import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import type { DeliveryRow } from '../../src/db/repositories/report-delivery.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';

/**
 * Monthly report messages are claimed a schedule's month at a time (ADR 65): two senders that
 * read the same due messages (a lease changing hands) never both send one, and the month goes
 * to one of them whole, so its report is built once and its audit entry names every recipient.
 */
describe.each(engines)('claiming monthly report messages on %s', (engine) => {
  let t: TestApp;
  const now = Date.parse('2026-04-01T08:00:00Z');
  const recipients = ['a@example.com', 'b@example.com', 'c@example.com'];

  beforeAll(async () => {
    t = await startTestApp({ engine });
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Shop', paused: true }),
    });
    const s = await t.inject({
      method: 'POST',
      url: '/api/v1/reports/schedules',
      payload: {
        name: 'Monthly',
        subject: { kind: 'monitor', id: String(m.json().id) },
        formats: ['pdf'],
        emails: recipients,
      },
    });
    expect(s.statusCode, s.body).toBe(201);
    const repo = repositories(t.database).reportDelivery;
    const [schedule] = await repo.schedules();
    expect(
      await repo.queueMonth(
        Number(schedule!.id),
        schedule!.queued_through,
        '2026-03',
        recipients,
        now,
      ),
    ).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  const byRecipient = (rows: DeliveryRow[]) => rows.map((r) => r.recipient).sort();

  it('gives a month read by two senders to one of them whole, and never a message twice', async () => {
    const repo = repositories(t.database).reportDelivery;
    const [readA, readB] = await Promise.all([repo.due(now), repo.due(now)]);
    expect(byRecipient(readA)).toEqual(recipients);
    const [a, b] = await Promise.all([
      repo.claim(readA, now + 600_000),
      repo.claim(readB, now + 600_000),
    ]);
    expect([a.length, b.length].sort()).toEqual([0, 3]);
    expect(byRecipient([...a, ...b])).toEqual(recipients);
    // Read before the claim, claimed since: nothing for a late sender.
    expect(await repo.claim(readA, now + 600_000)).toEqual([]);
    expect(await repo.due(now)).toEqual([]);
  });

  it('claims only the messages still as they were read', async () => {
    const repo = repositories(t.database).reportDelivery;
    const later = now + 700_000;
    const read = await repo.due(later);
    expect(read).toHaveLength(3);
    // Another sender took one meanwhile.
    expect(await repo.claim([read[1]!], later + 600_000)).toHaveLength(1);
    const rest = await repo.claim(read, later + 600_000);
    expect(byRecipient(rest)).toEqual(byRecipient([read[0]!, read[2]!]));
    expect(await repo.claim([], later)).toEqual([]);
  });
});
