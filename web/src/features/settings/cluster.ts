import type { ClusterMemberView } from '@pagewatch/contract';
import { formatCount, plural } from '../../lib/format';

/** How often Settings → Cluster asks again: a few renewals (2 s each), so shares move visibly. */
export const CLUSTER_REFRESH_MS = 5000;

/** A member's part of the partitions: "25%", "33.3%", "0.1%"; never "100%" unless all. */
export function formatShare(owned: number, total: number): string {
  if (total <= 0 || owned <= 0) return '0%';
  if (owned >= total) return '100%';
  const share = Math.min(99.9, Math.max(0.1, Math.round((owned / total) * 1000) / 10));
  return `${Number.isInteger(share) ? share : share.toFixed(1)}%`;
}

/** Resident memory in whole MiB, grouped: "142", "1,536". */
export const formatMiB = (bytes: number): string => formatCount(Math.round(bytes / (1024 * 1024)));

/** Checks a minute: whole above ten, one decimal below ("0.5", "12"). */
export function formatRate(perMinute: number): string {
  if (perMinute >= 10 || Number.isInteger(perMinute)) return formatCount(Math.round(perMinute));
  return perMinute.toFixed(1);
}

/**
 * The versions running, most members first, when they differ (a rolling upgrade): "0.2.0 on
 * 2 processes, 0.1.0 on 1". Null when every member runs the same one.
 */
export function mixedVersions(members: readonly Pick<ClusterMemberView, 'version'>[]) {
  const counts = new Map<string, number>();
  for (const m of members) counts.set(m.version, (counts.get(m.version) ?? 0) + 1);
  if (counts.size < 2) return null;
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || b.localeCompare(a, undefined, { numeric: true }))
    .map(([version, n], i) => `${version} on ${i === 0 ? plural(n, 'process', 'processes') : n}`)
    .join(', ');
}

/** The warning's title when partitions have no owner, or null when all are owned. */
export function unownedTitle(unowned: number, total: number): string | null {
  if (unowned <= 0) return null;
  if (unowned >= total) return `None of the ${formatCount(total)} partitions has an owner`;
  const verb = unowned === 1 ? 'has' : 'have';
  return `${plural(unowned, 'partition')} of ${formatCount(total)} ${verb} no owner`;
}
