import type { Page } from 'playwright-core';

/** Screenshots above this are retaken at a lower quality, then dropped. */
export const MAX_SCREENSHOT_BYTES = 300 * 1024;
const QUALITIES = [60, 35];

/**
 * A JPEG of the viewport (≤ 1280 px wide by the presets, device scale 1), within the byte cap;
 * null when the page cannot be photographed in time.
 */
export async function takeScreenshot(page: Page, timeoutMs: number): Promise<Uint8Array | null> {
  for (const quality of QUALITIES) {
    try {
      const shot = await page.screenshot({
        type: 'jpeg',
        quality,
        timeout: Math.max(500, timeoutMs),
        animations: 'disabled',
        caret: 'hide',
      });
      if (shot.length <= MAX_SCREENSHOT_BYTES) return new Uint8Array(shot);
    } catch {
      return null;
    }
  }
  return null;
}
