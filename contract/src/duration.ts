/**
 * A length of time in its two largest units: "12 s", "4 min 12 s", "2 h 5 min", "3 d 4 h".
 * Whole seconds, rounded down; under a second reads "0 s". Shared so an outage reads the same
 * in the incident's automatic update and on screen.
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const units: [number, string][] = [
    [Math.floor(total / 86_400), 'd'],
    [Math.floor((total % 86_400) / 3600), 'h'],
    [Math.floor((total % 3600) / 60), 'min'],
    [total % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first === -1) return '0 s';
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n} ${u}`)
    .join(' ');
}
