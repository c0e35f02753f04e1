import type { MonitorStats } from '@pagewatch/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMs, formatShortDateTime } from '../../../lib/format';
import { phaseLabel, phases, toChartData, type ChartData } from './chart-data';

const HEIGHT = 240;

function readTheme() {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: v('--text-muted'),
    grid: v('--border-subtle'),
    down: v('--down'),
    degraded: v('--degraded'),
    phase: Object.fromEntries(phases.map((p) => [p, v(`--chart-${p}`)])) as Record<
      (typeof phases)[number],
      string
    >,
  };
}

function useColorScheme(): string {
  const [scheme, setScheme] = useState(() =>
    window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setScheme(query.matches ? 'dark' : 'light');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return scheme;
}

/** Tints the buckets that had failed (red) or slow (amber) checks, with a solid strip at the bottom. */
function outagePlugin(
  current: { readonly current: ChartData },
  colors: { down: string; degraded: string },
): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        const data = current.current;
        const { ctx, bbox } = u;
        const n = data.x.length;
        if (n === 0) return;
        const width = Math.abs(
          u.valToPos(data.from + data.bucketSec, 'x', true) - u.valToPos(data.from, 'x', true),
        );
        ctx.save();
        for (let i = 0; i < n; i++) {
          const tone =
            (data.down[i] ?? 0) > 0
              ? colors.down
              : (data.degraded[i] ?? 0) > 0
                ? colors.degraded
                : null;
          if (!tone) continue;
          const x = u.valToPos(data.x[i]!, 'x', true);
          ctx.globalAlpha = 0.16;
          ctx.fillStyle = tone;
          ctx.fillRect(x, bbox.top, Math.max(width, 2), bbox.height);
          ctx.globalAlpha = 0.9;
          ctx.fillRect(x, bbox.top + bbox.height - 4, Math.max(width, 2), 4);
        }
        ctx.restore();
      },
    },
  };
}

const align = (data: ChartData): uPlot.AlignedData => [
  data.x,
  ...[...phases].reverse().map((p) => data.stacked[p]),
];

function buildOptions(
  width: number,
  current: { readonly current: ChartData },
  onCursor: (idx: number | null) => void,
): uPlot.Options {
  const t = readTheme();
  const axis: uPlot.Axis = {
    stroke: t.text,
    grid: { stroke: t.grid, width: 1 },
    ticks: { stroke: t.grid, width: 1, size: 4 },
    font: '11px system-ui, sans-serif',
  };
  // Bars, not areas: buckets are discrete and a lone bucket between gaps must still show.
  const bars = uPlot.paths.bars?.({ size: [0.86, 48, 1], align: 1 });
  // Draw the tallest stack first so each lower phase paints over it.
  const stack = [...phases].reverse().map<uPlot.Series>((p) => ({
    label: phaseLabel[p],
    stroke: t.phase[p],
    fill: t.phase[p],
    width: 0,
    paths: bars,
    points: { show: false },
  }));
  return {
    width,
    height: HEIGHT,
    padding: [8, 20, 0, 0],
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: true, range: () => [current.current.from, current.current.to] },
      y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] },
    },
    axes: [
      { ...axis },
      {
        ...axis,
        size: 60,
        values: (_u, splits) => splits.map((v) => (v === 0 ? '0' : formatMs(v))),
      },
    ],
    series: [{}, ...stack],
    plugins: [outagePlugin(current, t)],
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
  };
}

interface LatencyChartProps {
  stats: Pick<MonitorStats, 'series' | 'from' | 'to' | 'bucketMs'>;
  label: string;
}

/** Mean time per delivery phase, stacked, per bucket of the selected window. */
export default function LatencyChart({ stats, label }: LatencyChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const scheme = useColorScheme();
  const data = useMemo(() => toChartData(stats.series, stats), [stats]);
  const [cursor, setCursor] = useState<number | null>(null);

  // The latest data, read by the chart's range and plugin so refreshes need no rebuild.
  const current = useRef(data);

  useEffect(() => {
    const node = host.current;
    if (!node) return;
    const u = new uPlot(
      buildOptions(node.clientWidth || 600, current, setCursor),
      align(current.current),
      node,
    );
    plot.current = u;
    const observer = new ResizeObserver(() => {
      if (node.clientWidth > 0) u.setSize({ width: node.clientWidth, height: HEIGHT });
    });
    observer.observe(node);
    return () => {
      observer.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [scheme]);

  // Live refreshes swap the data in place: no flicker, the hover position survives.
  useEffect(() => {
    if (current.current === data) return;
    current.current = data;
    plot.current?.setData(align(data));
  }, [data]);

  const idx = cursor ?? null;
  const at = idx !== null ? data.x[idx] : undefined;
  return (
    <figure className="chart">
      <div ref={host} className="chart__plot" role="img" aria-label={label} />
      <figcaption className="chart__legend">
        <span className="chart__when">
          {at !== undefined
            ? formatShortDateTime(new Date(at * 1000).toISOString())
            : 'Hover for values'}
        </span>
        {phases.map((p) => (
          <span key={p} className="legend-item">
            <span className={`legend-swatch legend-swatch--${p}`} aria-hidden="true" />
            {phaseLabel[p]}
            {idx !== null && <strong>{formatMs(data.raw[p][idx])}</strong>}
          </span>
        ))}
        {idx !== null && (
          <span className="legend-item">
            Mean total <strong>{formatMs(data.total[idx])}</strong>
          </span>
        )}
        {idx !== null && (data.down[idx] ?? 0) > 0 && (
          <span className="legend-item text-down">{data.down[idx]} failed</span>
        )}
      </figcaption>
    </figure>
  );
}
