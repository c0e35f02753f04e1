import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { screenshotPath } from './browser.js';

/**
 * The code of the previous, current or next 30-second step for a base32 setup key, as an
 * authenticator app would show it then: all three are inside the server's ±1 window. The
 * server accepts each step once, so a flow that enrols, signs in and then turns two-factor
 * off uses them in that order.
 */
export function totpAt(key: string, stepOffset: -1 | 0 | 1): string {
  const secret = Secret.fromBase32(key.replace(/\s+/g, ''));
  const timestamp = Date.now() + stepOffset * 30_000;
  return new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp });
}

/**
 * Waits until the current 30-second step has at least `ms` left. A code from the step before
 * (`totpAt(key, -1)`) is only accepted while the server is still in this step: on a loaded
 * machine the fill, the click and the request can cross the step edge and turn it into a code
 * two steps old, which the server rightly refuses.
 */
export async function awayFromStepEdge(ms = 10_000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < ms) await new Promise((r) => setTimeout(r, left + 200));
}

/** The current 6-digit code, as an authenticator app shows it. */
export const totpNow = (key: string): string => totpAt(key, 0);

/**
 * Uncaught page errors and console errors, except the browser's own "Failed to load resource"
 * lines for the 401/403 answers the app expects (asking who is signed in while signed out).
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (
      /Failed to load resource: the server responded with a status of (40[0-9]|429)/.test(m.text())
    )
      return;
    errors.push(`console: ${m.text()}`);
  });
  return errors;
}

export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
  });
  return { context, page: await context.newPage() };
}

/** Signs in through the login form, as a person would. */
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /account menu/i }).click();
}

export async function signOutWithMenu(page: Page, everywhere = false): Promise<void> {
  await openUserMenu(page);
  await page
    .getByRole('button', { name: everywhere ? /sign out everywhere/i : /^sign out$/i })
    .click();
  await page.waitForURL(/\/login$/);
}

const sizes = [
  { label: 'desktop', width: 1280, height: 860 },
  { label: 'phone', width: 375, height: 812 },
] as const;

/**
 * Full-page screenshots of what is on screen at desktop and phone widths, light and dark,
 * named `<name>-<desktop|phone>-<light|dark>`; the page is left as it was found.
 */
export async function screenshotAll(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // From the top (sticky bars would land mid-page otherwise), once layout has settled.
      await page.evaluate(
        () =>
          new Promise((r) => {
            window.scrollTo(0, 0);
            requestAnimationFrame(() => r(null));
          }),
      );
      await page.screenshot({
        path: screenshotPath(`${name}-${size.label}-${scheme}`),
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (viewport) await page.setViewportSize(viewport);
}
