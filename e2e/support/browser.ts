import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../server/src/engine/checks/browser/pool.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * The built web app the browser tests serve. PAGEWATCH_WEB_DIST points a run at its own build
 * (`npx vite build --outDir …` in web/) so parallel work does not serve a half-written one.
 */
export const webDist = process.env.PAGEWATCH_WEB_DIST
  ? path.resolve(process.env.PAGEWATCH_WEB_DIST)
  : path.join(repoRoot, 'web/dist');
const shots = path.join(repoRoot, '.test-reports/screenshots');

/** System Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist} is missing: run \`npm run build -w web\` (npm test does it first)`);
  }
  return chromium.launch({
    executablePath: process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/** Where screenshots are kept as artefacts of the run. */
export function screenshotPath(name: string): string {
  fs.mkdirSync(shots, { recursive: true });
  return path.join(shots, `${name}.png`);
}

/**
 * Signs a browser context in through the real login endpoint and hands it the session cookie,
 * as a person signing in would end up.
 */
export async function signIn(
  context: BrowserContext,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pw_session='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  const value = cookie.slice('pw_session='.length).split(';')[0] ?? '';
  await context.addCookies([
    { name: 'pw_session', value, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
  ]);
}

/**
 * Accepts the browser's own "Leave site?" question (beforeunload), which a form with unsaved
 * input asks. A test that types into a form and then goes elsewhere with `page.goto` needs it:
 * Playwright dismisses unhandled dialogs, and a dismissed question keeps the page where it is.
 */
export function acceptLeaving(page: Page): void {
  page.on('dialog', (d) => {
    if (d.type() === 'beforeunload') void d.accept();
  });
}
