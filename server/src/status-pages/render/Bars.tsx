import type { PublicDay } from '../view-model.js';
import { dayLabel } from './labels.js';

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The day bars as markup: 90 per component, 4,500 on a large page, cost React ten times what
 * a string join does. Only generated text (dates, figures, a fixed class) goes in, escaped.
 */
export function barItems(days: readonly PublicDay[]): string {
  let html = '';
  for (const d of days)
    html += `<li class="${d.state}" tabindex="0" aria-label="${attr(dayLabel(d))}"></li>`;
  return html;
}

/** 90 day bars; each is focusable and shows its tooltip (its aria-label) on hover, focus or tap. */
export function Bars({ days, name }: { days: PublicDay[]; name: string }) {
  return (
    <ol
      className="bars"
      aria-label={`Daily uptime of ${name}, last ${days.length} days`}
      dangerouslySetInnerHTML={{ __html: barItems(days) }}
    />
  );
}
