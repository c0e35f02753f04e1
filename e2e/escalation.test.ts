import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../server/test/fixtures/alert-receiver.js';
import { startTargetServer, type TargetServer } from '../server/test/fixtures/target-server.js';
import { insertChannel } from '../server/test/support/outbox.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/**
 * Issue 18 items 2 and 3 in the browser: create an escalation policy under Notifications, give
 * it to a monitor in its form, and acknowledge the outage from its incident page.
 */
describe('escalation policies and acknowledgement in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let target: TargetServer;
  let team: AlertReceiver;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    team = await startAlertReceiver();
    app = await startTestApp({ engine: 'sqlite', listen: true, scheduler: true, webDist });
    await insertChannel(app.database, { url: team.url, name: 'Team pager' });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await target?.close();
    await team?.close();
  });

  async function shoot(name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['desktop', desktop],
        ['phone', phone],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.screenshot({
          path: screenshotPath(`escalation-${name}-${size}-${scheme}`),
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(desktop);
  }

  it('creates a weekly on-call schedule and shows who is on call now and next', async () => {
    const ben = await app.identity('editor', 'ben@example.com');
    await app.database.db
      .updateTable('users')
      .set({ name: 'Ben Night' })
      .where('id', '=', ben.userId)
      .execute();
    await page.goto(`${app.url}/notifications/oncall`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New on-call schedule' });
    await form.getByLabel('Name').fill('Web rota');
    // The owner first, then Ben. The first shift began two days ago at the 09:00 handoff, so
    // the owner is on call now whatever the hour (one starting today is nobody's before 09:00).
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('First shift starts on').fill(twoDaysAgo);
    await form.getByLabel(/^Olive Owner|^owner/).check();
    await form.getByLabel('Ben Night').check();
    await shoot('oncall-form');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    const card = page.getByRole('listitem', { name: 'Web rota' });
    await expect
      .poll(() => card.getByTestId('oncall-now').textContent(), { timeout: 10_000 })
      .toMatch(/On call now: /);
    expect(await card.getByTestId('oncall-next').textContent()).toContain('Ben Night');
    await shoot('oncall');
  }, 60_000);

  it('creates a policy, gives it to a monitor, and acknowledges its outage from the incident', async () => {
    await page.goto(`${app.url}/notifications/escalation`);
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Name').fill('Web on call');
    await form.getByLabel('Team pager').check();
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form.getByLabel('The monitor’s own channels').nth(1).check();
    await shoot('form');
    await form.getByRole('button', { name: 'Save policy' }).click();
    const list = page.getByRole('list', { name: 'Escalation policies' });
    await expect
      .poll(() => list.textContent(), { timeout: 10_000 })
      .toContain('at once: Team pager → 10 min later: the monitor’s channels');
    await shoot('list');

    // A monitor takes the policy in its form.
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: { type: 'http', name: 'Shop', url: `${target.url}/ok`, interval: 3600 },
    });
    const id = created.json<{ id: number }>().id;
    await page.goto(`${app.url}/monitors/${id}/edit`);
    await page.getByLabel('Escalation policy').selectOption({ label: 'Web on call' });
    await page.getByLabel('Severity').selectOption('critical');
    await page.getByRole('button', { name: /^Save/ }).first().click();
    await expect
      .poll(async () => (await app.inject(`/api/v1/monitors/${id}`)).json().alerts, {
        timeout: 10_000,
      })
      .toMatchObject({ escalationPolicyId: expect.any(Number), severity: 'critical' });

    // It goes down: the team's pager hears it, and the incident offers Acknowledge.
    target.setMode('down');
    await app.inject({ method: 'POST', url: `/api/v1/monitors/${id}/check-now` });
    await team.waitFor((all) => all.some((r) => r.kind === 'monitor.down' && r.monitorId === id));
    const incidents = (await app.inject(`/api/v1/incidents?monitorId=${id}`)).json<{
      items: { id: number }[];
    }>();
    await page.goto(`${app.url}/incidents/${incidents.items[0]!.id}`);
    await expect
      .poll(() => page.getByText('Escalating: nobody has acknowledged yet').count(), {
        timeout: 10_000,
      })
      .toBe(1);
    await shoot('incident');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    const notice = page.locator('.notice__title', { hasText: 'Acknowledged by owner@example.com' });
    await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(1);
    // The timeline says who and through what.
    await expect
      .poll(() => page.getByText(/through the web app; escalation stopped/).count(), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await shoot('acknowledged');
    expect(errors).toEqual([]);
  }, 60_000);
});
