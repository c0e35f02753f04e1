import type { DayState, PublicDay } from '../view-model.js';
import { dayLabel, shortDay } from './labels.js';

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One letter per state keeps 4,500 bars small (up, the usual, needs none). */
const dayClass: Record<DayState, string> = {
  up: '',
  degraded: 'g',
  down: 'd',
  maintenance: 'm',
  none: 'n',
};

/** A day fully up or without data: its tooltip comes from the stylesheet (date and state). */
const plain = (d: PublicDay) => (d.state === 'up' || d.state === 'none') && d.outages === 0;

/**
 * The day bars as markup (a string join: React per bar was most of a render). Plain days can
 * be tapped or clicked for their tooltip but are no tab stop; days with something to report
 * (downtime, slowness, maintenance) are tab stops labelled for screen readers.
 */
export function barItems(days: readonly PublicDay[]): string {
  let html = '';
  for (const d of days) {
    const c = dayClass[d.state] ? ` class=${dayClass[d.state]}` : '';
    html += plain(d)
      ? `<i${c} tabindex=-1></i>`
      : `<i${c} role=img tabindex=0 aria-label="${attr(dayLabel(d))}"></i>`;
  }
  return html;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the group of bars says as a whole: the days worth a look, counted. */
export function barsLabel(name: string, days: readonly PublicDay[]): string {
  const count = (state: DayState) => days.filter((d) => d.state === state).length;
  const [down, degraded, maintenance] = [count('down'), count('degraded'), count('maintenance')];
  const parts = [
    down > 0 ? `${plural(down, 'day')} down` : '',
    degraded > 0 ? `${plural(degraded, 'day')} degraded` : '',
    maintenance > 0 ? `${plural(maintenance, 'day')} of maintenance` : '',
  ].filter(Boolean);
  const summary =
    parts.length > 0
      ? parts.join(', ')
      : days.some((d) => d.state === 'up')
        ? 'no downtime'
        : 'no data yet';
  return `Daily uptime of ${name}, last ${days.length} days: ${summary}`;
}

let datesCss = { key: '', css: '' };

/**
 * Each bar's date, by position: the same 90 dates stand under every component, so the
 * stylesheet says them once instead of 4,500 attributes.
 */
export function barDatesCss(dates: readonly string[]): string {
  const key = dates.join();
  if (datesCss.key !== key) {
    const rules = dates.map((d, i) => `.bars>:nth-child(${i + 1}){--d:"${shortDay(d)}"}`);
    datesCss = { key, css: rules.join('') };
  }
  return datesCss.css;
}

/** 90 day bars with tooltips on hover, tap and focus; no script involved. */
export function Bars({ days, name }: { days: PublicDay[]; name: string }) {
  return (
    <div
      className="bars"
      role="group"
      aria-label={barsLabel(name, days)}
      dangerouslySetInnerHTML={{ __html: barItems(days) }}
    />
  );
}
