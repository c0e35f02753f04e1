import type { LocationLatency } from '@pagewatch/contract';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMs } from '../../lib/format';

const HEIGHT = 200;
const PALETTE = [
  '--chart-ttfb',
  '--chart-download',
  '--chart-dns',
  '--chart-tls',
  '--chart-connect',
];

/** The colours are read from the theme: the chart is drawn again when the scheme changes. */
function useColorScheme(): string {
  const query = '(prefers-color-scheme: dark)';
  const [scheme, setScheme] = useState(() => (window.matchMedia(query).matches ? 'dark' : 'light'));
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setScheme(list.matches ? 'dark' : 'light');
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return scheme;
}

/** Latency over the last hours, one line per location (gaps where a check failed). */
export default function LocationLatencyChart({ series }: { series: LocationLatency['series'] }) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  const style = getComputedStyle(document.documentElement);
  const colour = (i: number) => style.getPropertyValue(PALETTE[i % PALETTE.length]!).trim();
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const tables = series.map((s): uPlot.AlignedData => [
      s.points.map((p) => p[0] / 1000),
      s.points.map((p) => p[1]),
    ]);
    const data = uPlot.join(tables);
    const text = style.getPropertyValue('--text-muted').trim();
    const grid = style.getPropertyValue('--border-subtle').trim();
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: el.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 64, values: (_u, ticks) => ticks.map((v) => formatMs(v)) }],
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.name,
            stroke: colour(i),
            width: 1.5,
            // Rows of the other locations leave holes between a location's own points.
            spanGaps: true,
            points: { show: true, size: 4 },
          })),
        ],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: el.clientWidth, height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, scheme]);
  return (
    <div className="mloc-chart">
      <div ref={box} role="img" aria-label="Latency by location over the last 6 hours" />
      <div className="mloc-legend">
        {series.map((s, i) => (
          <span key={s.id}>
            <span className="mloc-legend__swatch" style={{ background: colour(i) }} />
            {s.name}
          </span>
        ))}
      </div>
    </div>
  );
}
