import { instantOfWallClock, wallClockAt } from '@pagewatch/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

const ZONE = 'Europe/Berlin';

/** A Berlin calendar date `days` from today there, as YYYY-MM-DD and as a floating day. */
function berlinDay(days: number) {
  const w = wallClockAt(Date.now(), ZONE);
  const floating = Date.UTC(w.year, w.month - 1, w.day + days);
  return { date: new Date(floating).toISOString().slice(0, 10), floating };
}

/**
 * Issue 18 item 4 in the browser (ADR 67): Ana and Ben on a weekly rotation in Berlin, Ben
 * covering an afternoon, the 14-day timeline and now/next, a second layer added by editing,
 * and deleting schedules (refused while a policy pages one). Works at any hour: the rotation
 * began three days ago at the 09:00 handoff, so Ana is on call now and the cover is tomorrow.
 */
describe('on-call schedules in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    for (const [email, name] of [
      ['ana@example.com', 'Ana Day'],
      ['ben@example.com', 'Ben Night'],
      ['cleo@example.com', 'Cleo Weekend'],
    ] as const) {
      const who = await app.identity('editor', email);
      await app.database.db
        .updateTable('users')
        .set({ name })
        .where('id', '=', who.userId)
        .execute();
    }
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop, timezoneId: 'UTC' });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (name: string) => shootAll(page, `oncall-${name}`, { fromTop: true });

  const card = (name: string) =>
    page.getByRole('list', { name: 'On-call schedules' }).getByRole('listitem', { name });
  const finalRow = async (c: Locator) =>
    Promise.all(
      (await c.getByTestId('oncall-final-shift').all()).map(
        async (s) => (await s.getAttribute('aria-label')) ?? '',
      ),
    );

  async function pickZone(form: Locator) {
    await form.getByRole('combobox', { name: 'Time zone' }).fill('Berlin');
    await form.getByRole('combobox', { name: 'Time zone' }).press('Enter');
  }

  it('puts Ana and Ben on a weekly rotation in Berlin and shows now and next', async () => {
    await page.goto(`${app.url}/notifications/oncall`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New on-call schedule' });
    await form.getByLabel('Name', { exact: true }).fill('Web team');
    await pickZone(form);
    const layer = form.getByRole('group', { name: 'Layer 1' });
    await layer.getByLabel('Layer title').fill('Weekly');
    await layer.getByLabel('First shift starts on').fill(berlinDay(-3).date);
    await layer.getByLabel('Handoff time').fill('09:00');
    await layer.getByLabel('Ben Night').check();
    await layer.getByLabel('Ana Day').check();
    // Ben was ticked first: move Ana to the front of the order.
    const order = layer.getByRole('list', { name: 'Rotation order of Weekly' });
    await order.getByRole('listitem').nth(1).getByRole('button', { name: 'Move earlier' }).click();
    expect(await order.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Ana Day'),
      expect.stringContaining('Ben Night'),
    ]);
    await shoot('form');
    await form.getByRole('button', { name: 'Save schedule' }).click();

    const c = card('Web team');
    await expect
      .poll(() => c.getByTestId('oncall-now').textContent(), { timeout: 15_000 })
      .toMatch(/^On call now: Ana Day until /);
    const nextText = await c.getByTestId('oncall-next').textContent();
    expect(nextText).toMatch(/^Next: Ben Night from .*09:00$/);
    // Ben takes over four days from today at 09:00 Berlin.
    const handoff = new Date(instantOfWallClock(berlinDay(4).floating + 9 * 3_600_000, ZONE));
    expect(await c.getByTestId('oncall-next').locator('time').getAttribute('datetime')).toBe(
      handoff.toISOString(),
    );
  }, 90_000);

  it('Ben covers tomorrow afternoon: listed, marked on the timeline, and next', async () => {
    const c = card('Web team');
    await c.getByRole('button', { name: 'Add an override' }).click();
    const form = c.getByRole('form', { name: 'New override' });
    await form.getByLabel('Who is on call instead').selectOption({ label: 'Ben Night' });
    const tomorrow = berlinDay(1).date;
    await form.getByLabel(/^From/).fill(`${tomorrow}T12:00`);
    await form.getByLabel(/^Until/).fill(`${tomorrow}T18:00`);
    await form.getByRole('button', { name: 'Save override' }).click();

    const list = c.getByRole('list', { name: 'Upcoming overrides' });
    await expect.poll(() => list.textContent(), { timeout: 15_000 }).toMatch(/Ben Night covers/);
    expect(await list.textContent()).toMatch(/12:00 – 18:00/);
    await expect
      .poll(() => c.getByTestId('oncall-next').textContent(), { timeout: 15_000 })
      .toMatch(/^Next: Ben Night \(override\) from .*12:00$/);
    await expect
      .poll(async () => (await finalRow(c)).map((l) => l.split(':')[0]), { timeout: 15_000 })
      .toEqual(['Ana Day', 'Ben Night (override)', 'Ana Day', 'Ben Night', 'Ana Day']);
    const rows = c.getByRole('rowheader');
    expect(await rows.allTextContents()).toEqual(['Weekly', 'On call']);
    await shoot('override');
  }, 90_000);

  it('edits the schedule: a second layer, its duplicate name refused next to the field', async () => {
    const c = card('Web team');
    await c.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit “Web team”' });
    await form.getByRole('button', { name: 'Add a layer' }).click();
    const layer = form.getByRole('group', { name: 'Layer 2' });
    await layer.getByLabel('Layer title').fill('weekly');
    await layer.getByLabel('Cleo Weekend').check();
    await layer.getByLabel('Only on some days or hours').check();
    for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await layer.getByLabel(d).uncheck();
    await layer.getByLabel('Sat').check();
    await layer.getByLabel('Sun').check();
    await layer.getByLabel('From', { exact: true }).fill('10:00');
    await layer.getByLabel('To', { exact: true }).fill('16:00');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    // The server's 400 lands on the second layer's title.
    const field = layer.locator('[data-field="layers.1.name"]');
    await expect
      .poll(() => field.textContent(), { timeout: 15_000 })
      .toContain('Another layer has this name');
    await shoot('form-error');
    await layer.getByLabel('Layer title').fill('Weekend');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => form.count(), { timeout: 15_000 }).toBe(0);

    await expect
      .poll(() => c.getByRole('rowheader').allTextContents(), { timeout: 15_000 })
      .toEqual(['Weekly', 'Weekend', 'On call']);
    // Two weekends lie in any 14 days: Cleo is paged on them, later layers winning.
    await expect
      .poll(async () => (await finalRow(c)).filter((l) => l.startsWith('Cleo Weekend')).length, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(3);
    expect(await c.textContent()).toContain('2 layers');
    // The override still stands after the edit.
    expect(await c.getByRole('list', { name: 'Upcoming overrides' }).textContent()).toContain(
      'Ben Night covers',
    );
    await shoot('two-layers');
  }, 90_000);

  it('swaps a shift of Ben with one of Ana: two overrides, each takes the other’s', async () => {
    const c = card('Web team');
    await c.getByRole('button', { name: 'Add an override' }).click();
    const form = c.getByRole('form', { name: 'New override' });
    await form.getByRole('radio', { name: 'Swap two shifts' }).click();
    const a = form.getByLabel('This shift');
    const benShift = (await a.locator('option').allTextContents()).find((o) =>
      o.startsWith('Ben Night:'),
    )!;
    await a.selectOption({ label: benShift });
    const b = form.getByLabel('Swaps with');
    const options = await b.locator('option').allTextContents();
    // Only other people's shifts are offered.
    expect(options.some((o) => o.startsWith('Ben Night:'))).toBe(false);
    const anaShift = options.find((o) => o.startsWith('Ana Day:'))!;
    await b.selectOption({ label: anaShift });
    await shoot('swap-form');
    await form.getByRole('button', { name: 'Swap shifts' }).click();

    const list = c.getByRole('list', { name: 'Upcoming overrides' });
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 15_000 }).toBe(3);
    const items = await list.getByRole('listitem').allTextContents();
    expect(items.filter((i) => i.startsWith('Ana Day covers'))).toHaveLength(1);
    expect(items.filter((i) => i.startsWith('Ben Night covers'))).toHaveLength(2);
    await expect
      .poll(async () => (await finalRow(c)).some((l) => l.startsWith('Ana Day (override)')), {
        timeout: 15_000,
      })
      .toBe(true);

    // Deleting one override from the list takes it off the timeline too.
    await list
      .getByRole('listitem')
      .filter({ hasText: 'Ana Day covers' })
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: 15_000 }).toBe(2);
    await expect
      .poll(async () => (await finalRow(c)).some((l) => l.startsWith('Ana Day (override)')), {
        timeout: 15_000,
      })
      .toBe(false);
  }, 90_000);

  it('deletes a schedule no policy uses, and refuses one a policy pages', async () => {
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New on-call schedule' });
    await form.getByLabel('Name', { exact: true }).fill('Spare rota');
    await pickZone(form);
    await form.getByRole('group', { name: 'Layer 1' }).getByLabel('Ana Day').check();
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(() => card('Spare rota').count(), { timeout: 15_000 }).toBe(1);

    await card('Spare rota').getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Spare rota”?' });
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await expect.poll(() => card('Spare rota').count(), { timeout: 15_000 }).toBe(0);

    const list = await app.inject({ url: '/api/v1/oncall-schedules' });
    const webTeam = list
      .json<{ items: { id: number; name: string }[] }>()
      .items.find((s) => s.name === 'Web team')!;
    const policy = await app.inject({
      method: 'POST',
      url: '/api/v1/escalation-policies',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'Web pager',
        steps: [{ waitMinutes: 0, targets: [{ kind: 'schedule', scheduleId: webTeam.id }] }],
      }),
    });
    expect(policy.statusCode).toBe(201);
    await card('Web team').getByRole('button', { name: 'Delete', exact: true }).click();
    const refuse = page.getByRole('dialog', { name: 'Delete “Web team”?' });
    await refuse.getByRole('button', { name: 'Delete schedule' }).click();
    await expect
      .poll(() => refuse.textContent(), { timeout: 15_000 })
      .toContain('Escalation policy “Web pager” pages this schedule');
    expect(await refuse.textContent()).toContain('Still in use');
    await shoot('delete-refused');
    await refuse.getByRole('button', { name: 'Cancel' }).click();
    expect(await card('Web team').count()).toBe(1);
    expect(errors).toEqual([]);
  }, 90_000);

  it('offers the schedule’s and my own calendar feed with copy buttons', async () => {
    const c = card('Web team');
    expect(await c.locator('.oncall-feed__url').textContent()).toMatch(
      /\/ical\/schedules\/\d+\/[\w-]+\.ics$/,
    );
    expect(await c.getByRole('button', { name: 'Copy schedule feed' }).count()).toBe(1);
    const mine = page.getByRole('region', { name: 'My shifts' });
    expect(await mine.locator('.oncall-feed__url').textContent()).toMatch(
      /\/ical\/users\/\d+\/[\w-]+\.ics$/,
    );
    expect(await mine.getByRole('button', { name: 'Copy my feed' }).count()).toBe(1);
    // The feed answers with Ben's override in it.
    const url = new URL((await c.locator('.oncall-feed__url').textContent())!, app.url);
    const ics = await fetch(`${app.url}${url.pathname}`).then((r) => r.text());
    expect(ics).toContain('Ben Night');
  }, 60_000);
});
