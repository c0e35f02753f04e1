import type { Locator, Page } from 'playwright-core';
import { screenshotPath } from './browser.js';

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 390, height: 844 };

export type ScreenSize = 'desktop' | 'phone';
export type ColorScheme = 'light' | 'dark';

export interface ShootOptions {
  /** Also a shot of this part alone, as `<name>-part-<size>-<scheme>`. */
  part?: Locator;
  /**
   * Scrolls to the top first: a page scrolled by a click draws the sticky top bar mid-page in
   * full-page shots.
   */
  fromTop?: boolean;
  /** Runs at each size and scheme before the shot, e.g. to check nothing scrolls sideways. */
  check?: (size: ScreenSize, scheme: ColorScheme) => Promise<void>;
}

/**
 * Desktop and phone, light and dark: every screen is looked at in all four, as full-page shots
 * named `<name>-<size>-<scheme>`. The page is left light at desktop size.
 */
export async function shootAll(page: Page, name: string, options: ShootOptions = {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [size, viewport] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      await page.setViewportSize(viewport);
      if (options.fromTop) await page.evaluate(() => window.scrollTo(0, 0));
      await options.check?.(size, scheme);
      await page.screenshot({ path: screenshotPath(`${name}-${size}-${scheme}`), fullPage: true });
      await options.part?.screenshot({ path: screenshotPath(`${name}-part-${size}-${scheme}`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(desktop);
}
