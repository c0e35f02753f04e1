import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertReceiver, type AlertReceiver } from '../server/test/fixtures/alert-receiver.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';
import { desktop, shootAll } from './support/screens.js';

/**
 * Issue 18 item 1 in the browser (ADR 60): add a webhook contact method under My account, type
 * back the code its real receiver got, set quiet hours, and put a person step in a policy.
 */
describe('contact methods and person steps in the UI', () => {
  let browser: Browser;
  let app: TestApp;
  let phoneHook: AlertReceiver;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    phoneHook = await startAlertReceiver();
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: desktop });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await phoneHook?.close();
  });

  /** Desktop and phone, light and dark, from the top (a click may have scrolled the page). */
  const shoot = (name: string) => shootAll(page, `contact-methods-${name}`, { fromTop: true });

  it('adds a webhook contact method and verifies it with the code it received', async () => {
    await page.goto(`${app.url}/settings/account`);
    const form = page.getByRole('form', { name: 'Add a contact method' });
    await form.getByLabel('Kind').selectOption('webhook');
    await form.getByLabel(/^Label/).fill('Phone bridge');
    await form.getByLabel('URL').fill(phoneHook.url);
    await form.getByRole('button', { name: 'Add and send a code' }).click();
    const [msg] = await phoneHook.waitFor((all) => all.length > 0);
    const code = /verification code: (\d{6})/.exec((msg!.body as { title: string }).title)![1]!;
    const row = page.getByTestId('contact-method');
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('Not verified');
    await shoot('unverified');
    await page.getByLabel('Code for Phone bridge').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify Phone bridge' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), { timeout: 10_000 })
      .toMatch(/not the code/);
    await page.getByLabel('Code for Phone bridge').fill(code);
    await page.getByRole('button', { name: 'Verify Phone bridge' }).click();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/Verified/);
    expect(await row.textContent()).not.toMatch(/Not verified/);

    const quiet = page.getByRole('form', { name: 'Add quiet hours' });
    await quiet.getByLabel('Time zone').selectOption('Europe/Berlin');
    await quiet.getByRole('button', { name: 'Add quiet hours' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Your quiet hours' }).textContent(), {
        timeout: 10_000,
      })
      .toContain('22:00–07:00 (Europe/Berlin)');
    await shoot('verified');
    const methods = (await app.inject('/api/v1/me/contact-methods')).json<{
      items: { verifiedAt: string | null }[];
    }>();
    expect(methods.items[0]!.verifiedAt).toBeTruthy();
  }, 60_000);

  it('puts a person step in a policy and names them in the list', async () => {
    await page.goto(`${app.url}/notifications/escalation`);
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Name').fill('Owner first');
    await form
      .getByLabel(/^Person: /)
      .first()
      .check();
    await form.getByRole('button', { name: 'Add a step' }).click();
    await form
      .getByLabel(/^Everyone/)
      .nth(1)
      .check();
    await shoot('policy-form');
    await form.getByRole('button', { name: 'Save policy' }).click();
    const list = page.getByRole('list', { name: 'Escalation policies' });
    await expect
      .poll(() => list.textContent(), { timeout: 10_000 })
      .toMatch(/at once: .+ → 10 min later: everyone/);
    const saved = (await app.inject('/api/v1/escalation-policies')).json<{
      items: { steps: { targets: { kind: string }[] }[] }[];
    }>();
    expect(saved.items[0]!.steps.map((s) => s.targets[0]!.kind)).toEqual(['user', 'everyone']);
    await shoot('policy-list');
    expect(errors).toEqual([]);
  }, 60_000);
});
