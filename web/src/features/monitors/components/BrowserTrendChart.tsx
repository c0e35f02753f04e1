import type { BrowserRun } from '@pagewatch/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMs, formatShortDateTime } from '../../../lib/format';

const HEIGHT = 200;

const series = [
  { key: 'lcpMs', label: 'LCP', color: '--chart-ttfb' },
  { key: 'loadMs', label: 'Load', color: '--chart-download' },
] as const;

function toData(runs: readonly BrowserRun[]): uPlot.AlignedData {
  const ordered = [...runs].reverse();
  return [
    ordered.map((r) => Date.parse(r.at) / 1000),
    ...series.map((s) => ordered.map((r) => r[s.key])),
  ];
}

function buildOptions(width: number, onCursor: (idx: number | null) => void): uPlot.Options {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string) => style.getPropertyValue(name).trim();
  const axis: uPlot.Axis = {
    stroke: v('--text-muted'),
    grid: { stroke: v('--border-subtle'), width: 1 },
    ticks: { stroke: v('--border-subtle'), width: 1, size: 4 },
    font: '11px system-ui, sans-serif',
  };
  return {
    width,
    height: HEIGHT,
    padding: [8, 20, 0, 0],
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { y: { range: (_u, _min, max) => [0, Math.max(100, max * 1.1)] } },
    axes: [
      { ...axis },
      {
        ...axis,
        size: 60,
        values: (_u, splits) => splits.map((s) => (s === 0 ? '0' : formatMs(s))),
      },
    ],
    series: [
      {},
      ...series.map<uPlot.Series>((s) => ({
        label: s.label,
        stroke: v(s.color),
        width: 2,
        spanGaps: false,
        points: { show: true, size: 5, fill: v(s.color) },
      })),
    ],
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
  };
}

/** LCP and load time per browser check, oldest to newest; gaps where a check measured nothing. */
export default function BrowserTrendChart({
  runs,
  label,
}: {
  runs: readonly BrowserRun[];
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useMemo(() => toData(runs), [runs]);
  const current = useRef(data);
  const [cursor, setCursor] = useState<number | null>(null);

  useEffect(() => {
    const node = host.current;
    if (!node) return;
    const u = new uPlot(buildOptions(node.clientWidth || 600, setCursor), current.current, node);
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
  }, []);

  useEffect(() => {
    if (current.current === data) return;
    current.current = data;
    plot.current?.setData(data);
  }, [data]);

  const at = cursor !== null ? data[0][cursor] : undefined;
  return (
    <figure className="chart chart--short">
      <div ref={host} className="chart__plot" role="img" aria-label={label} />
      <figcaption className="chart__legend">
        <span className="chart__when">
          {at !== undefined
            ? formatShortDateTime(new Date(at * 1000).toISOString())
            : 'Hover for values'}
        </span>
        {series.map((s, i) => (
          <span key={s.key} className="legend-item">
            <span
              className="legend-swatch"
              style={{ background: `var(${s.color})` }}
              aria-hidden="true"
            />
            {s.label}
            {cursor !== null && <strong>{formatMs(data[i + 1]?.[cursor] ?? null)}</strong>}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
