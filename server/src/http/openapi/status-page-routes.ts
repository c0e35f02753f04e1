import {
  BadgeOptions,
  badgeWindows,
  PublicStatusPage,
  Slug,
  SubscribeInput,
} from '@pagewatch/contract';
import { PAGE_CACHE } from '../routes/public/status-pages.js';
import { SUBSCRIBE_RATE } from '../routes/public/subscribe.js';
import {
  cacheHeaders,
  documented,
  header,
  notModified,
  parametersOf,
  pathParam,
  text,
  type DocumentedRoute,
} from './documented.js';
import type { Json, SchemaComponents } from './schemas.js';

const slug = (s: SchemaComponents): Json =>
  pathParam('slug', "The page's address, as set in its settings.", s.inline(Slug));

const customDomain =
  'The same routes answer at `/` on the page’s custom domain (e.g. `/index.json`), when one is set.';

/** Other sites may read it: fetch() from any origin (never with credentials), and embed it. */
const crossOrigin = (cors: boolean): Json => ({
  ...(cors
    ? { 'Access-Control-Allow-Origin': header('`*`: any site may read it.', { const: '*' }) }
    : {}),
  'Cross-Origin-Resource-Policy': header('`cross-origin`: other sites may embed it.', {
    const: 'cross-origin',
  }),
});

const htmlNotFound = text('text/html', 'There is no published page (or nothing of it) here.');

function pages(s: SchemaComponents): DocumentedRoute[] {
  const html = (id: string, path: string, summary: string, extra: Json[] = []) =>
    documented('get', path, {
      id,
      tag: 'public-status-pages',
      summary,
      description: `Server-rendered HTML that needs no script. ${customDomain}`,
      parameters: [slug(s), ...extra],
      responses: {
        200: text('text/html', 'The page.', { headers: cacheHeaders(PAGE_CACHE) }),
        304: notModified,
        404: htmlNotFound,
      },
    });
  return [
    html('getPublicStatusPage', '/status/{slug}', 'A published status page'),
    html('getPublicStatusHistory', '/status/{slug}/history', 'Its 90-day history'),
    html('getPublicIncident', '/status/{slug}/incidents/{incidentId}', 'One incident of it', [
      pathParam('incidentId', 'The incident’s id.', { type: 'integer', minimum: 1 }),
    ]),
    documented('get', '/status/{slug}/index.json', {
      id: 'getPublicStatusPageJson',
      tag: 'public-status-pages',
      summary: 'A published status page as JSON',
      description: `What the HTML shows, for scripts and other sites: \`Access-Control-Allow-Origin: *\` lets any origin read it. ${customDomain}`,
      parameters: [slug(s)],
      responses: {
        200: {
          description: 'The page’s view model.',
          headers: {
            ...cacheHeaders(PAGE_CACHE),
            ...crossOrigin(true),
          },
          content: { 'application/json': { schema: s.ref(PublicStatusPage, 'output') } },
        },
        304: notModified,
        404: htmlNotFound,
      },
    }),
    documented('get', '/status/{slug}/logo', {
      id: 'getPublicStatusPageLogo',
      tag: 'public-status-pages',
      summary: 'The page’s logo',
      description:
        'With `v` equal to the logo’s hash (as the page links it) the answer may be cached for a year.',
      parameters: [
        slug(s),
        {
          name: 'v',
          in: 'query',
          required: false,
          description: 'The logo’s hash.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'The image as uploaded (PNG, JPEG, WebP or GIF).',
          headers: { ETag: header('The logo’s hash.') },
          content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
        },
        404: htmlNotFound,
      },
    }),
  ];
}

function feeds(s: SchemaComponents): DocumentedRoute[] {
  return (
    [
      ['atom', 'application/atom+xml', 'Atom'],
      ['rss', 'application/rss+xml', 'RSS 2.0'],
    ] as const
  ).map(([ext, type, name]) =>
    documented('get', `/status/{slug}/feed.${ext}`, {
      id: `getPublicStatusFeed${ext === 'atom' ? 'Atom' : 'Rss'}`,
      tag: 'feeds',
      summary: `${name} feed of incidents and maintenance`,
      description: customDomain,
      parameters: [slug(s)],
      responses: {
        200: text(type, `The ${name} feed; other sites may read it.`, {
          headers: { ...cacheHeaders(PAGE_CACHE), ...crossOrigin(true) },
        }),
        304: notModified,
        404: htmlNotFound,
      },
    }),
  );
}

function badges(): DocumentedRoute[] {
  const files = ['status.svg', ...badgeWindows.map((w) => `uptime-${w}.svg`)];
  return [
    documented('get', '/badge/{monitorId}/{file}', {
      id: 'getBadge',
      tag: 'badges',
      summary: 'A monitor’s status or uptime as an SVG badge',
      description:
        'Only for monitors a published status page shows, labelled as that page names them; any other monitor is the same 404.',
      parameters: [
        pathParam('monitorId', 'The monitor’s id.', { type: 'integer', minimum: 1 }),
        pathParam('file', '`status.svg`, or the uptime over a window.', {
          type: 'string',
          enum: files,
        }),
        ...parametersOf(BadgeOptions, 'query'),
      ],
      responses: {
        200: {
          description:
            'The badge (cached 60 s for the status, 5 minutes for uptime, by shared caches too).',
          headers: { ETag: header('Changes whenever the badge does.'), ...crossOrigin(false) },
          content: { 'image/svg+xml': { schema: { type: 'string' } } },
        },
        304: notModified,
      },
      problems: [400, 404],
    }),
  ];
}

function subscriptions(s: SchemaComponents): DocumentedRoute[] {
  const { perIp, perPage } = SUBSCRIBE_RATE;
  const form = (title: string) => text('text/html', title);
  const tokenPages = (['confirm', 'unsubscribe'] as const).flatMap((step) => {
    const Step = step === 'confirm' ? 'Confirm' : 'Unsubscribe';
    const params = [
      slug(s),
      pathParam('token', 'The token from the email or webhook message.', { type: 'string' }),
    ];
    const what = step === 'confirm' ? 'confirm a subscription' : 'unsubscribe';
    return [
      documented('get', `/status/{slug}/${step}/{token}`, {
        id: `get${Step}SubscriptionPage`,
        tag: 'subscriptions',
        summary: `A form to ${what} (following a link never changes anything by itself)`,
        parameters: params,
        responses: { 200: form('The form.'), 404: htmlNotFound },
      }),
      documented('post', `/status/{slug}/${step}/{token}`, {
        id: step === 'confirm' ? 'confirmSubscription' : 'unsubscribe',
        tag: 'subscriptions',
        summary:
          step === 'confirm'
            ? 'Confirm a subscription'
            : 'Unsubscribe (also the RFC 8058 one-click target)',
        parameters: params,
        requestBody: {
          required: false,
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: { 'List-Unsubscribe': { const: 'One-Click' } },
              },
            },
          },
        },
        responses: { 200: form('Done.'), 404: htmlNotFound },
        problems: [413],
      }),
    ];
  });
  return [
    documented('get', '/status/{slug}/subscribe', {
      id: 'getSubscribeForm',
      tag: 'subscriptions',
      summary: 'The subscription form of a page that allows subscribing',
      parameters: [slug(s)],
      responses: { 200: form('The form.'), 404: htmlNotFound },
    }),
    documented('post', '/status/{slug}/subscribe', {
      id: 'subscribe',
      tag: 'subscriptions',
      summary: 'Subscribe by email (double opt-in) or webhook',
      description: `A form post answers HTML; a JSON post answers JSON. Per visitor ${perIp.burst} requests, then one every ${perIp.refillMs / 60_000} minutes; per page ${perPage.burst}, then one a second (429).`,
      parameters: [slug(s)],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema: s.ref(SubscribeInput, 'input') },
          'application/json': { schema: s.ref(SubscribeInput, 'input') },
        },
      },
      responses: {
        200: form('Subscribed (webhook) or asked to confirm (email), for a form post.'),
        202: {
          description: 'Accepted, for a JSON post: `pending` until the email is confirmed.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { state: { enum: ['pending', 'confirmed'] } },
                required: ['state'],
              },
            },
          },
        },
        400: either('The address is not valid'),
        404: either('No published page here allows subscribing'),
        429: {
          ...either('Too many requests'),
          headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
        },
      },
      problems: [413],
    }),
    ...tokenPages,
  ];
}

/** A form post is answered with the form again (HTML), a JSON post with a problem. */
const either = (what: string): Json => ({
  description: `${what}: the form with the reason for a form post, a problem for a JSON post.`,
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
  },
});

/** Published status pages, their JSON, feeds, badges and subscription flows. */
export const statusPageRoutes = (s: SchemaComponents): DocumentedRoute[] => [
  ...pages(s),
  ...feeds(s),
  ...badges(),
  ...subscriptions(s),
];
