/** The document's tags, in reading order; an operation with a tag not listed here fails the tests. */
export const tags = [
  {
    name: 'auth',
    description: 'First-run setup, signing in and out, sessions, password and two-factor.',
  },
  {
    name: 'monitors',
    description: 'Monitors, their check results, statistics, screenshots and push tokens.',
  },
  {
    name: 'incidents',
    description: 'Incidents opened by flips or declared by hand, and their timelines.',
  },
  { name: 'maintenance', description: 'One-off and recurring maintenance windows.' },
  {
    name: 'status-pages',
    description: 'Status pages as editors manage them: sections, logo, previews and subscribers.',
  },
  {
    name: 'notification-channels',
    description: 'Where alerts go (email, webhooks, chat); secrets are write-only.',
  },
  {
    name: 'deliveries',
    description: 'Each alert sent through a channel, with its attempts and outcome.',
  },
  {
    name: 'escalation',
    description: 'Escalation policies and acknowledging the outages they route.',
  },
  {
    name: 'slos',
    description: 'Service level objectives: attainment, error budget and burn-rate alerts.',
  },
  {
    name: 'reports',
    description: 'Availability reports (JSON, CSV, PDF), their read-only links for customers.',
  },
  { name: 'events', description: 'Live results and status changes as Server-Sent Events.' },
  { name: 'users', description: 'Accounts and their roles (admins and owners).' },
  {
    name: 'api-keys',
    description: 'API keys for scripts and the CLI: `Authorization: Bearer pw_…`.',
  },
  { name: 'audit', description: 'Who changed what, when and from where.' },
  {
    name: 'backup',
    description:
      'Backups of everything with history: the download and the schedule (admins and owners).',
  },
  {
    name: 'config',
    description:
      'Configuration as code: export, apply (one transaction) and the JSON Schema of the files.',
  },
  {
    name: 'import',
    description:
      'Imports from other tools (Uptime Kuma), with a preview before anything is written.',
  },
  {
    name: 'cluster',
    description: 'The processes of the deployment and the work each one holds (admins and owners).',
  },
  {
    name: 'locations',
    description:
      'Locations (pools of remote probes) and the probes’ tokens, shown once (admins and owners).',
  },
  {
    name: 'settings',
    description:
      'Instance settings (name, time zone, data retention), storage figures, and the owner’s ' +
      'actions: transfer ownership, delete all data.',
  },
  {
    name: 'probe-protocol',
    description:
      'The remote probes’ protocol (v1): assignment stream, result batches, heartbeats; the probe token is the credential.',
  },
  {
    name: 'push',
    description: 'Heartbeats from cron jobs and scripts; the token in the URL is the credential.',
  },
  {
    name: 'public-status-pages',
    description: 'Published status pages as visitors see them: HTML, JSON and the logo.',
  },
  {
    name: 'feeds',
    description: 'Atom and RSS feeds of a status page’s incidents and maintenance.',
  },
  {
    name: 'badges',
    description: 'Embeddable SVG badges of a monitor shown on a published status page.',
  },
  {
    name: 'subscriptions',
    description:
      'Visitors subscribing to a status page by email or webhook, confirming and leaving.',
  },
  {
    name: 'operations',
    description: 'Liveness, readiness and Prometheus metrics for whoever runs Pagewatch.',
  },
  { name: 'api-description', description: 'This OpenAPI document.' },
] as const;

const management = [
  'auth',
  'monitors',
  'incidents',
  'maintenance',
  'status-pages',
  'notification-channels',
  'deliveries',
  'escalation',
  'slos',
  'reports',
  'events',
  'users',
  'api-keys',
  'audit',
  'cluster',
  'locations',
  'settings',
  'config',
];

/** Sidebar groups for readers that support them (Scalar, Redoc). */
export const tagGroups = [
  { name: 'Management API', tags: management },
  {
    name: 'Public endpoints',
    tags: tags.map((t) => t.name as string).filter((name) => !management.includes(name)),
  },
];
