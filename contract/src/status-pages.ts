import { z } from 'zod';
import { DeliveryState } from './notifications.js';
import { currentZoneName } from './settings.js';
import { isValidTimeZone } from './zoned-time.js';

export const statusPageLimits = {
  titleMax: 100,
  descriptionMax: 5000,
  footerMax: 1000,
  sectionsMax: 20,
  componentsMax: 200,
  displayNameMax: 100,
  logoBytesMax: 256 * 1024,
} as const;

/** Logo types accepted by upload (checked by their bytes, not the name); SVG is refused (scripts). */
export const logoTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** SPEC §5. */
export const Slug = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'Lower-case letters, digits and hyphens, starting with a letter or digit (at most 63)',
  );

/** A hostname a status page answers on (Host header); unique across pages. */
export const CustomDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'Domain names are limited to 253 characters')
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/,
    'Enter a domain name like status.example.com',
  );

export const StatusComponentInput = z.strictObject({
  monitorId: z.number().int().positive(),
  /** Shown instead of the monitor's own name; empty uses the monitor's name. */
  displayName: z.string().trim().max(statusPageLimits.displayNameMax).default(''),
  description: z.string().trim().max(500).default(''),
  /**
   * Shows each of the monitor's locations' current status under the component and names the
   * failing ones when it is REGIONAL (ADR 66); only when it runs in more than one location.
   */
  showLocations: z.boolean().default(false),
});
export type StatusComponentInput = z.input<typeof StatusComponentInput>;

export const StatusSectionInput = z.strictObject({
  title: z.string().trim().max(100, 'Section titles are limited to 100 characters').default(''),
  components: z.array(StatusComponentInput).max(statusPageLimits.componentsMax),
});
export type StatusSectionInput = z.input<typeof StatusSectionInput>;

export const StatusPageTheme = z.strictObject({
  mode: z.enum(['auto', 'light', 'dark']).default('auto'),
  accent: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'A colour like #2563eb')
    .default('#2563eb'),
});
export type StatusPageTheme = z.infer<typeof StatusPageTheme>;

export const StatusPageShow = z.strictObject({
  uptimeBars: z.boolean().default(true),
  latencyChart: z.boolean().default(false),
  currentLatency: z.boolean().default(false),
  /** Each component's uptime per calendar month (the page's zone), the last 12 (ADR 66). */
  monthlyUptime: z.boolean().default(false),
});
export type StatusPageShow = z.infer<typeof StatusPageShow>;

/** POST and PUT /api/v1/status-pages[/:id]. */
export const StatusPageInput = z
  .strictObject({
    slug: Slug,
    title: z
      .string()
      .trim()
      .min(1, 'Give the page a title')
      .max(statusPageLimits.titleMax, 'Titles are limited to 100 characters'),
    /** Markdown; rendered sanitised (no raw HTML, no script URLs). */
    description: z
      .string()
      .max(statusPageLimits.descriptionMax, 'Descriptions are limited to 5,000 characters')
      .default(''),
    customDomain: CustomDomain.nullable().default(null),
    sections: z
      .array(StatusSectionInput)
      .max(statusPageLimits.sectionsMax, 'At most 20 sections')
      .default([]),
    show: StatusPageShow.default({
      uptimeBars: true,
      latencyChart: false,
      currentLatency: false,
      monthlyUptime: false,
    }),
    theme: StatusPageTheme.default({ mode: 'auto', accent: '#2563eb' }),
    footer: z
      .string()
      .max(statusPageLimits.footerMax, 'The footer is limited to 1,000 characters')
      .default(''),
    published: z.boolean().default(false),
    /**
     * The zone the page's times are written in for visitors without script (named beside
     * them); with the page's script on, visitors see their own zone.
     */
    timeZone: z
      .string()
      .trim()
      .refine(isValidTimeZone, 'Choose a time zone from the list, e.g. Europe/Berlin')
      .transform(currentZoneName)
      .default('UTC'),
    /** Lets visitors subscribe to incident and maintenance notices. */
    subscriptions: z
      .strictObject({
        email: z.boolean().default(false),
        webhook: z.boolean().default(false),
        /** The email channel whose SMTP server sends subscriber mail. */
        emailChannelId: z.number().int().positive().nullable().default(null),
      })
      .default({ email: false, webhook: false, emailChannelId: null }),
  })
  .superRefine((page, ctx) => {
    const seen = new Set<number>();
    page.sections.forEach((s, si) =>
      s.components.forEach((c, ci) => {
        if (seen.has(c.monitorId)) {
          ctx.addIssue({
            code: 'custom',
            path: ['sections', si, 'components', ci, 'monitorId'],
            message: 'This monitor is already on the page',
          });
        }
        seen.add(c.monitorId);
      }),
    );
    if (page.subscriptions.email && page.subscriptions.emailChannelId === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['subscriptions', 'emailChannelId'],
        message: 'Choose the email channel that sends subscriber mail',
      });
    }
  });
export type StatusPageInput = z.input<typeof StatusPageInput>;

/** The page as editors see it (API), not as the public does. */
export const StatusPage = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  customDomain: z.string().nullable(),
  sections: z.array(
    z.object({
      title: z.string(),
      components: z.array(
        z.object({
          monitorId: z.number().int(),
          displayName: z.string(),
          description: z.string(),
          showLocations: z.boolean(),
          /** The monitor's own name (for the editor). */
          monitorName: z.string(),
        }),
      ),
    }),
  ),
  show: StatusPageShow,
  theme: StatusPageTheme,
  footer: z.string(),
  published: z.boolean(),
  timeZone: z.string(),
  subscriptions: z.object({
    email: z.boolean(),
    webhook: z.boolean(),
    emailChannelId: z.number().int().nullable(),
  }),
  /** Path of the uploaded logo (cache-busted), or null. */
  logoUrl: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type StatusPage = z.infer<typeof StatusPage>;

export const StatusPageList = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      slug: z.string(),
      title: z.string(),
      published: z.boolean(),
      customDomain: z.string().nullable(),
      componentCount: z.number().int(),
      subscriberCount: z.number().int(),
      updatedAt: z.iso.datetime(),
    }),
  ),
});
export type StatusPageList = z.infer<typeof StatusPageList>;

export const SubscriberKind = z.enum(['email', 'webhook']);
export const SubscriberState = z.enum(['pending', 'confirmed', 'unsubscribed']);

/** The public subscribe form (POST /status/:slug/subscribe, form-encoded or JSON). */
export const SubscribeInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('email'),
    address: z.string().trim().max(254).pipe(z.email('Enter an email address')),
  }),
  z.strictObject({
    kind: z.literal('webhook'),
    address: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => /^https?:\/\/[^\s/]+/.test(v), 'Enter an http:// or https:// URL'),
  }),
]);
export type SubscribeInput = z.infer<typeof SubscribeInput>;

/** A subscriber as the page's editors see it (GET /api/v1/status-pages/:id/subscribers). */
export const Subscriber = z.object({
  id: z.number().int(),
  kind: SubscriberKind,
  address: z.string(),
  state: SubscriberState,
  createdAt: z.iso.datetime(),
  confirmedAt: z.iso.datetime().nullable(),
  /** The newest notice queued for them (their confirmation, an incident, maintenance). */
  lastNotice: z
    .object({
      state: DeliveryState,
      attempts: z.number().int(),
      /** When it was queued, or sent once it was. */
      at: z.iso.datetime(),
      /** Why the last attempt failed (retrying, failed). */
      error: z.string().nullable(),
    })
    .nullable(),
});
export type Subscriber = z.infer<typeof Subscriber>;
export const SubscriberList = z.object({ items: z.array(Subscriber) });

/**
 * What a subscriber is told, as stored in the outbox: only what the page shows publicly. Links
 * are built at send time from `baseUrl` and the subscriber's token.
 */
export const SubscriberNotice = z.object({
  kind: z.enum(['confirm', 'incident', 'maintenance']),
  at: z.iso.datetime(),
  /** Where the page is reached: PAGEWATCH_PUBLIC_URL, its custom domain, or the request's origin. */
  baseUrl: z.string(),
  page: z.object({ id: z.number().int(), slug: z.string(), title: z.string() }),
  incident: z
    .object({
      id: z.number().int(),
      title: z.string(),
      state: z.string(),
      severity: z.string(),
      /** The public update that caused the notice. */
      message: z.string(),
    })
    .nullable(),
  maintenance: z
    .object({
      id: z.number().int(),
      title: z.string(),
      description: z.string(),
      change: z.enum(['scheduled', 'updated', 'cancelled']),
      /** The next occurrence, when there is one. */
      startsAt: z.iso.datetime().nullable(),
      endsAt: z.iso.datetime().nullable(),
    })
    .nullable(),
});
export type SubscriberNotice = z.infer<typeof SubscriberNotice>;

/**
 * GET /api/v1/status-pages/unannounced: open incidents that touch a component of a published
 * page and have no public update yet. Visitors see a neutral line for them; editors are asked
 * to say something.
 */
export const UnannouncedIncidents = z.object({
  items: z.array(
    z.object({
      incidentId: z.number().int(),
      title: z.string(),
      startedAt: z.iso.datetime(),
      /** The incident's monitors shown on published pages, by the monitor's own name. */
      monitors: z.array(z.object({ id: z.number().int(), name: z.string() })),
      pages: z.array(z.object({ id: z.number().int(), title: z.string(), slug: z.string() })),
    }),
  ),
});
export type UnannouncedIncidents = z.infer<typeof UnannouncedIncidents>;
