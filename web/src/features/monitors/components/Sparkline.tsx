import { decodeRecent, type RecentChecks } from '@pagewatch/contract';
import { memo } from 'react';

const W = 120;
const H = 28;
const PAD = 3;
/** Slots drawn even with fewer checks, so every row shares one time scale, newest at the right. */
const SLOTS = 30;

type Check = ReturnType<typeof decodeRecent>[number];

function summary(recent: Check[]): string {
  const down = recent.filter((c) => c.outcome === 'down').length;
  const degraded = recent.filter((c) => c.outcome === 'degraded').length;
  const parts = [`${recent.length - down - degraded} up`];
  if (degraded) parts.push(`${degraded} degraded`);
  if (down) parts.push(`${down} down`);
  return `Last ${recent.length} checks: ${parts.join(', ')}`;
}

/** Latency line of the latest checks, with red marks where a check failed and amber where it was slow. */
export const Sparkline = memo(function Sparkline({ recent: compact }: { recent: RecentChecks }) {
  const recent = decodeRecent(compact);
  if (recent.length === 0) {
    return <span className="sparkline sparkline--empty">No checks yet</span>;
  }
  const latencies = recent.map((c) => c.latencyMs).filter((v): v is number => v !== null);
  const max = Math.max(1, ...latencies);
  const n = recent.length;
  const step = (W - PAD * 2) / (Math.max(n, SLOTS) - 1);
  const x = (i: number) => W - PAD - (n - 1 - i) * step;
  const y = (v: number) => H - PAD - (v / max) * (H - PAD * 2);

  let line = '';
  let pen = false;
  recent.forEach((c, i) => {
    if (c.latencyMs === null || c.outcome === 'down') {
      pen = false;
      return;
    }
    line += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(c.latencyMs).toFixed(1)}`;
    pen = true;
  });
  const markW = Math.max(2, Math.min(6, step * 0.7));

  return (
    <svg
      className="sparkline"
      width={W}
      height={H}
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={summary(recent)}
    >
      {recent.map((c, i) =>
        c.outcome === 'down' ? (
          <rect
            key={i}
            className="sparkline__down"
            x={x(i) - markW / 2}
            y={1}
            width={markW}
            height={H - 2}
            rx={1}
          />
        ) : null,
      )}
      {line && <path className="sparkline__line" d={line} />}
      {recent.map((c, i) =>
        c.outcome === 'degraded' && c.latencyMs !== null ? (
          <circle key={i} className="sparkline__degraded" cx={x(i)} cy={y(c.latencyMs)} r={2.2} />
        ) : null,
      )}
      {latencies.length === 1 && recent.length === 1 && recent[0]?.outcome !== 'down' && (
        <circle className="sparkline__dot" cx={x(0)} cy={y(latencies[0] ?? 0)} r={2} />
      )}
    </svg>
  );
});
