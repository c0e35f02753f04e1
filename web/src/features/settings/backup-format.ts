const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** A backup's size for people: "812 KiB", "1.4 GiB". */
export function formatBackupSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** How long a backup took: "under 0.1 s", "0.4 s", "12 s", "3 min 5 s". */
export function formatBackupDuration(ms: number): string {
  if (ms < 100) return 'under 0.1 s';
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
