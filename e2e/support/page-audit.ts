import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1, levels A and AA: colour contrast among them. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Everything a page complains about while it is looked at: console errors and warnings,
 * uncaught exceptions, and CSP violations (recorded in the page, where the browser raises them).
 */
export function watchPage(page: Page): { complaints: () => Promise<string[]>; reset(): void } {
  let logged: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      logged.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => logged.push(`uncaught: ${e.message}`));
  void page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(
        `CSP ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  return {
    complaints: async () => [
      ...logged,
      ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
    ],
    reset: () => {
      logged = [];
    },
  };
}

/** axe-core over the whole document, evaluated through the DevTools protocol (no CSP exemption needed). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{
            violations: {
              id: string;
              impact: string | null;
              help: string;
              nodes: { target: unknown[]; failureSummary?: string }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
      })),
    }));
  }, AXE_TAGS);
}

/** One readable block per screen: rule, impact, and each offending element with axe's reason. */
export function describeViolations(screen: string, violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}) ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target}\n      ${n.summary}`).join('\n'),
    )
    .join('\n');
}

/**
 * WCAG 1.4.11, which axe leaves alone: the edge of every visible text field and select, and the
 * focus ring of the first keyboard stop, reach 3:1 against what is behind them.
 */
export async function nonTextContrast(page: Page): Promise<string[]> {
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const rgb = (c: string): number[] | null => {
      const m = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)$/.exec(c);
      return m
        ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])]
        : null;
    };
    const lum = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: number[], b: number[]) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    /** The first opaque background from `el` outwards (the page's own at the end). */
    const backdrop = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c && c[3]! >= 1) return c;
      }
      return rgb(getComputedStyle(document.documentElement).backgroundColor) ?? [255, 255, 255, 1];
    };
    const problems: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''}`;
    const fields = document.querySelectorAll(
      'input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=color]):not(:disabled), select:not(:disabled), textarea:not(:disabled)',
    );
    for (const el of fields) {
      if (!(el as HTMLElement).offsetParent || el.matches(':focus')) continue;
      const style = getComputedStyle(el);
      const edge = rgb(style.borderBottomColor);
      const fill = rgb(style.backgroundColor);
      const behind = backdrop(el.parentElement);
      if (!edge || parseFloat(style.borderBottomWidth) === 0) continue;
      const best = Math.max(ratio(edge, behind), fill && fill[3]! >= 1 ? ratio(fill, behind) : 0);
      if (best < 3)
        problems.push(
          `field edge ${name(el)}: ${best.toFixed(2)}:1 (${style.borderBottomColor} on rgb(${behind.slice(0, 3).join(', ')}))`,
        );
    }
    const active = document.activeElement;
    if (active && active !== document.body) {
      const style = getComputedStyle(active);
      const ring = rgb(style.outlineColor);
      if (style.outlineStyle !== 'none' && ring) {
        const r = ratio(ring, backdrop(active.parentElement));
        if (r < 3)
          problems.push(`focus ring ${name(active)}: ${r.toFixed(2)}:1 (${style.outlineColor})`);
      } else if (style.outlineStyle === 'none' && style.boxShadow === 'none') {
        problems.push(`focus on ${name(active)} shows no outline or shadow`);
      }
    }
    return problems;
  });
}
