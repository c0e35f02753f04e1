import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../server/test/support/app.js';
import { shootAll } from './support/screens.js';
import { startSignedInOwner, type SignedInOwner } from './support/signed-in.js';

/**
 * A tag uses an escalation policy, in the UI (ADR 61): attach tags to policies on the policies
 * screen, and a monitor with those tags says its policy comes from a tag, and which tag won.
 */
describe('a tag uses a policy in the UI', () => {
  let owner: SignedInOwner;
  let app: TestApp;
  let page: Page;

  beforeAll(async () => {
    owner = await startSignedInOwner();
    ({ app, page } = owner);
  });
  afterAll(async () => owner?.stop());

  const shoot = (name: string) => shootAll(page, `tag-policies-${name}`, { fromTop: true });

  async function create(url: string, payload: object) {
    const res = await app.inject({ method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  }
  const policy = (name: string) =>
    create('/api/v1/escalation-policies', {
      name,
      steps: [{ waitMinutes: 0, targets: [{ kind: 'monitor_channels' }] }],
    });
  const monitor = (name: string, tags: string[]) =>
    create('/api/v1/monitors', {
      type: 'http',
      name,
      url: 'http://127.0.0.1:9/',
      interval: 3600,
      timeout: 5,
      tags,
    });

  it('attaches tags to policies and shows the winning tag on a monitor', async () => {
    const night = await policy('Night pager');
    const web = await policy('Web team');
    const shop = await monitor('Shop front', ['web', 'prod']);
    await monitor('Shop API', ['api']);

    await page.goto(`${app.url}/notifications/escalation`);
    const nightItem = page.locator(`#policy-${night}`);
    const webItem = page.locator(`#policy-${web}`);
    await nightItem.getByText('No tag uses it.').waitFor();

    // Attach "web" to Web team and "prod" to Night pager.
    await webItem.getByLabel('Tag', { exact: true }).selectOption('web');
    await webItem.getByRole('button', { name: 'Attach tag' }).click();
    await webItem.getByRole('button', { name: 'Detach tag web' }).waitFor();
    await nightItem.getByLabel('Tag', { exact: true }).selectOption('prod');
    await nightItem.getByRole('button', { name: 'Attach tag' }).click();
    await nightItem.getByRole('button', { name: 'Detach tag prod' }).waitFor();
    expect((await app.inject('/api/v1/escalation-tag-policies')).json()).toEqual({
      items: [
        { tag: 'prod', policyId: night },
        { tag: 'web', policyId: web },
      ],
    });
    // A tag another policy has says it moves.
    expect(
      await nightItem.getByLabel('Tag', { exact: true }).locator('option').allTextContents(),
    ).toContain('web (moves from Web team)');
    await shoot('screen');

    // The monitor names no policy: "prod" sorts before "web", so Night pager applies.
    await page.goto(`${app.url}/monitors/${shop}`);
    const panel = page.getByRole('region', { name: 'Escalation policy' });
    await panel.getByText('from tag').waitFor();
    expect(await panel.locator('p').first().textContent()).toBe('Night pager, from tag prod.');
    expect(await panel.locator('p').nth(1).textContent()).toBe(
      'Of its tags with a policy, “prod” sorts first by name, so it wins over web (Web team).',
    );
    expect(await panel.getByRole('link', { name: 'Night pager' }).getAttribute('href')).toBe(
      `/notifications/escalation#policy-${night}`,
    );
    expect(await panel.getByRole('link', { name: 'prod' }).getAttribute('href')).toBe('/?tag=prod');
    await shoot('monitor');

    // Detach "prod": Web team applies, from tag web, with nothing left to win over.
    await page.goto(`${app.url}/notifications/escalation`);
    await nightItem.getByRole('button', { name: 'Detach tag prod' }).click();
    await nightItem.getByText('No tag uses it.').waitFor();
    await page.goto(`${app.url}/monitors/${shop}`);
    await panel.getByText('Web team, from tag web.').waitFor();
    expect(await panel.locator('p').count()).toBe(1);
    expect(owner.errors).toEqual([]);
  }, 90_000);
});
