import { z } from 'zod';

export const badgeWindows = ['24h', '7d', '30d', '90d'] as const;
export const BadgeWindow = z.enum(badgeWindows);
export type BadgeWindow = z.infer<typeof BadgeWindow>;

export const badgeStyles = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const;
export const BadgeStyle = z.enum(badgeStyles);
export type BadgeStyle = z.infer<typeof BadgeStyle>;

/** What a badge shows: the current status, or the uptime over a window. */
export type BadgeKind = 'status' | `uptime-${BadgeWindow}`;

/** The names shields.io-style badges know, besides hex. */
export const badgeColourNames = [
  'brightgreen',
  'green',
  'yellowgreen',
  'yellow',
  'orange',
  'red',
  'blue',
  'grey',
  'gray',
  'lightgrey',
  'lightgray',
] as const;

export const badgeLimits = { labelMax: 60 } as const;

const BadgeColour = z
  .string()
  .refine(
    (v) => /^(?:[0-9a-f]{3}){1,2}$/i.test(v) || (badgeColourNames as readonly string[]).includes(v),
    'Use a hex colour without # (e.g. 555 or 2da44e) or a name such as blue or grey',
  );

/**
 * The query of `/badge/:monitorId/<kind>.svg`: how the badge looks, never what it reports.
 * Unknown parameters are ignored, so cache-busting ones (`?v=2`) keep working.
 */
export const BadgeOptions = z.object({
  style: BadgeStyle.default('flat'),
  /** Replaces the left-hand text (the page's name for the monitor); empty leaves only the value. */
  label: z
    .string()
    .max(badgeLimits.labelMax, `Labels are limited to ${badgeLimits.labelMax} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'Labels cannot hold control characters')
    .optional(),
  labelColor: BadgeColour.optional(),
});
export type BadgeOptions = z.infer<typeof BadgeOptions>;
export type BadgeOptionsInput = z.input<typeof BadgeOptions>;

/** The badge's path and query, leaving defaults out so the address stays short. */
export function badgePath(monitorId: number, kind: BadgeKind, options: BadgeOptionsInput = {}) {
  const query = new URLSearchParams();
  if (options.style && options.style !== 'flat') query.set('style', options.style);
  if (options.label !== undefined) query.set('label', options.label);
  if (options.labelColor) query.set('labelColor', options.labelColor);
  const search = query.toString().replace(/\+/g, '%20');
  return `/badge/${monitorId}/${kind}.svg${search ? `?${search}` : ''}`;
}

/** GET /api/v1/monitors/:id/badges: where a monitor's badges live, for the badge builder. */
export const MonitorBadges = z.object({
  /** PAGEWATCH_PUBLIC_URL; null when unset (the address the app is open at is the best guess). */
  publicUrl: z.string().nullable(),
  /** The name badges give the monitor: as the first published page showing it names it. */
  label: z.string().nullable(),
  /** Published pages showing the monitor; with none, its badges answer 404. */
  pages: z.array(z.object({ id: z.number().int(), slug: z.string(), title: z.string() })),
});
export type MonitorBadges = z.infer<typeof MonitorBadges>;
