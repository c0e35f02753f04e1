import type { PublicResponseTimes } from '../view-model.js';

// 10 units an hour and 1 unit a pixel of height: whole numbers keep the paths short.
const STEP = 10;
const HEIGHT = 48;
const TOP = 4;

/**
 * The chart's line and the area under it, one piece per run of hours with checks: an hour
 * without any is a gap, not a drop to zero. The scale starts at 0 so a wiggle looks like one.
 */
export function chartPaths(hours: readonly (number | null)[]): { line: string; area: string } {
  const max = Math.max(1, ...hours.map((h) => h ?? 0));
  const x = (i: number) => i * STEP;
  const y = (v: number) => Math.round(HEIGHT - (v / max) * (HEIGHT - TOP));
  let line = '';
  let area = '';
  let run: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const points = run.map((i) => `${x(i)},${y(hours[i] ?? 0)}`);
    if (run.length === 1) {
      // A lone hour shows as a short flat stroke, with no area under it.
      const [at] = run as [number];
      line += `M${Math.max(0, x(at) - 2)},${y(hours[at] ?? 0)}h4`;
    } else {
      line += `M${points.join('L')}`;
      area += `M${x(run[0]!)},${HEIGHT}L${points.join('L')}L${x(run.at(-1)!)},${HEIGHT}Z`;
    }
    run = [];
  };
  hours.forEach((h, i) => (h === null ? flush() : run.push(i)));
  flush();
  return { line, area };
}

/** The last 24 hours of mean response time as an inline SVG: no script, no request. */
export function ResponseTimes({ data, name }: { data: PublicResponseTimes; name: string }) {
  const summary =
    data.avgMs === null
      ? 'no timed checks'
      : `average ${data.avgMs} ms, slowest hour ${data.maxMs ?? data.avgMs} ms`;
  const { line, area } = chartPaths(data.hours);
  return (
    <figure className="rt">
      <svg
        viewBox={`0 0 ${(data.hours.length - 1) * STEP} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Response time of ${name}, last 24 hours: ${summary}`}
      >
        <path className="rt-area" d={area} />
        <path className="rt-line" d={line} vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="foot">
        <span>Response time, 24 h</span>
        <span>
          {data.avgMs === null
            ? 'No timed checks'
            : `avg ${data.avgMs} ms · max ${data.maxMs ?? data.avgMs} ms`}
        </span>
      </figcaption>
    </figure>
  );
}
