/** How long a new API key lives: a preset number of days, a chosen date, or for ever. */
export const expiryChoices = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'date', label: 'On a date…' },
] as const;

export type ExpiryChoice = (typeof expiryChoices)[number]['value'];

const DAY = 86_400_000;

/**
 * The ISO time a key expires, null for never, or a message when the chosen date is missing or
 * not in the future. A date means the end of that day where the person is.
 */
export function expiryFor(
  choice: string,
  date: string,
  now: number,
): { expiresAt: string | null } | { error: string } {
  if (choice === 'never') return { expiresAt: null };
  if (choice !== 'date') {
    const days = Number(choice);
    if (!Number.isInteger(days) || days <= 0) return { error: 'Choose when the key expires' };
    return { expiresAt: new Date(now + days * DAY).toISOString() };
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return { error: 'Choose a date' };
  const end = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59);
  if (Number.isNaN(end.getTime())) return { error: 'Choose a date' };
  if (end.getTime() <= now) return { error: 'Choose a date in the future' };
  return { expiresAt: end.toISOString() };
}
