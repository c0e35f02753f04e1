const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** A size for people: "0 bytes", "812 KiB", "1.4 GiB", "312 GiB". */
export function formatSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** Checks a minute, as a rate people can picture. */
export function formatRate(perMinute: number): string {
  if (perMinute === 0) return 'none';
  if (perMinute < 1) return `${(perMinute * 60).toFixed(perMinute * 60 < 10 ? 1 : 0)} an hour`;
  return `${perMinute < 10 ? perMinute.toFixed(1) : Math.round(perMinute).toLocaleString('en')} a minute`;
}
