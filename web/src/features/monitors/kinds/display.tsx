import type { Monitor, MonitorType } from '@pagewatch/contract';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Icon } from '../../../components/ui/Icon';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { formatSeconds, plural } from '../../../lib/format';
import { PushUrlPanel } from '../components/PushUrlPanel';
import { GroupMemberNames } from '../components/GroupMemberNames';
import { assertionText } from './assertion-text';

// Screenshot, vitals, waterfall and chart: fetched only when a browser monitor's page opens.
const BrowserPanels = lazy(() =>
  import('../components/BrowserPanels').then((m) => ({ default: m.BrowserPanels })),
);

type Of<T extends MonitorType> = Extract<Monitor, { type: T }>;

/** How the screens show one monitor type; no zod here, the dashboard bundle imports it. */
interface KindDisplay<T extends MonitorType> {
  label: string;
  /** What the monitor points at, as the server's list `target`. */
  target(m: Of<T>): string;
  /** The target line of the monitor header. */
  headerTarget(m: Of<T>): ReactNode;
  /** Rows of the check settings panel, after the common schedule rows. */
  settings(m: Of<T>): [string, ReactNode][];
  /** A warning flag for the header, if any. */
  flag?(m: Of<T>): ReactNode;
  /** How often, in words, where it is not "Every 1 min" (types nothing times). */
  cadence?(m: Of<T>): string;
  /** Results arrive on their own (push): no timeout, no "check now". */
  passive?: boolean;
  /** A panel of the monitor page, under the uptime summary. */
  Panel?: ComponentType<{ monitor: Of<T> }>;
}

function authText(auth: Of<'http'>['auth']): string {
  if (auth.kind === 'basic') {
    return `Basic, user “${auth.username}”${auth.hasSecret ? ', password saved' : ', no password'}`;
  }
  if (auth.kind === 'bearer') return auth.hasSecret ? 'Bearer token, saved' : 'Bearer token';
  return 'None';
}

const BODY_LABEL = { none: 'None', json: 'JSON', form: 'Form', raw: 'Raw text' } as const;
const FAMILY_LABEL = { auto: 'Automatic', ipv4: 'IPv4 only', ipv6: 'IPv6 only' } as const;

const hostPort = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

const dnsQuestion = (m: Of<'dns'>): string =>
  `${m.recordType} ${m.host}${m.resolver === '' ? '' : ` @ ${m.resolver}`}`;

/** "1 MiB", "64 KiB", "1,500 bytes". */
function byteSize(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return plural(n, 'byte');
}

const bytes = (text: string): string => plural(new TextEncoder().encode(text).length, 'byte');

type DatabaseMonitor = Of<'postgres' | 'mysql' | 'redis' | 'mongodb'>;

/** The header and settings rows the database types share; `scheme` names the product. */
function databaseDisplay<T extends 'postgres' | 'mysql' | 'redis' | 'mongodb'>(
  label: string,
  scheme: string,
  asked: (m: Of<T>) => [string, ReactNode][],
): KindDisplay<T> {
  const rows = asked as (m: DatabaseMonitor) => [string, ReactNode][];
  const where = (m: DatabaseMonitor) => {
    const db = String(m.database);
    return `${scheme}://${hostPort(m.host, m.port)}${db === '' || db === '0' ? '' : `/${db}`}`;
  };
  const display: KindDisplay<'postgres' | 'mysql' | 'redis' | 'mongodb'> = {
    label,
    target: where,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">{label.toUpperCase()}</span>
        <span className="mhead__href">{where(m)}</span>
      </span>
    ),
    settings: (m: DatabaseMonitor) => [
      [
        'Login',
        m.username === ''
          ? m.hasPassword
            ? 'Default user, password saved'
            : 'No login'
          : `User “${m.username}”${m.hasPassword ? ', password saved' : ', no password'}`,
      ],
      [
        'TLS',
        !m.tls ? (
          'Off'
        ) : m.ignoreTrust ? (
          <span className="text-warning">On, any issuer accepted</span>
        ) : (
          `On, certificate verified, warns ${plural(m.warnDays, 'day')} before expiry`
        ),
      ],
      ...rows(m),
    ],
    flag: (m: DatabaseMonitor) =>
      m.tls &&
      m.ignoreTrust && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          Any issuer accepted
        </span>
      ),
  };
  // One display serves the four types; their monitors share every field it reads.
  return display as unknown as KindDisplay<T>;
}

const queryRows = (query: string, fallback: string, expected: string): [string, ReactNode][] => [
  ['Runs', <code key="q">{query === '' ? fallback : query}</code>],
  ['Expects', expected === '' ? 'Any answer' : <code key="e">{expected}</code>],
];

/** "850 ms", "4.2 s", "12 min 5 s": a job's run time. */
function formatRunTime(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return formatSeconds(Math.round(ms / 1000));
}

type BrokerMonitor = Of<'mqtt' | 'amqp'>;

const mqttTarget = (m: Of<'mqtt'>): string =>
  `mqtt${m.tls ? 's' : ''}://${hostPort(m.host, m.port)}${m.topic === '' ? '' : ` ${m.topic}`}`;

const amqpTarget = (m: Of<'amqp'>): string =>
  `amqp${m.tls ? 's' : ''}://${hostPort(m.host, m.port)}${
    m.vhost === '/' ? '' : `/${encodeURIComponent(m.vhost)}`
  }${m.queue === '' ? '' : ` ${m.queue}`}`;

const smtpTarget = (m: Of<'smtp'>): string =>
  `smtp${m.security === 'tls' ? 's' : ''}://${hostPort(m.host, m.port)}`;

const MQTT_MODE: Record<Of<'mqtt'>['mode'], string> = {
  connect: 'Connect and log in',
  subscribe: 'A message on the topic within the timeout',
  roundtrip: 'A probe published and received back',
};

/** Login and TLS rows of a message broker. */
const brokerRows = (m: BrokerMonitor): [string, ReactNode][] => [
  [
    'Login',
    m.username === ''
      ? 'Anonymous'
      : `User “${m.username}”${m.hasPassword ? ', password saved' : ', no password'}`,
  ],
  [
    'TLS',
    !m.tls ? (
      'Off'
    ) : m.ignoreTrust ? (
      <span className="text-warning">On, any issuer accepted</span>
    ) : (
      `On, certificate verified, warns ${plural(m.warnDays, 'day')} before expiry`
    ),
  ],
];

const brokerFlag = (m: BrokerMonitor): ReactNode =>
  m.tls &&
  m.ignoreTrust && (
    <span className="flag flag--warning">
      <Icon name="shield" size={13} />
      Any issuer accepted
    </span>
  );

/** IMAP and POP3: where, and how the connection is secured. */
function mailboxDisplay<T extends 'imap' | 'pop3'>(label: string, scheme: string): KindDisplay<T> {
  const where = (m: Of<'imap' | 'pop3'>) =>
    `${scheme}${m.security === 'tls' ? 's' : ''}://${hostPort(m.host, m.port)}`;
  const display: KindDisplay<'imap' | 'pop3'> = {
    label,
    target: where,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">{label}</span>
        <span className="mhead__href">{where(m)}</span>
      </span>
    ),
    settings: (m) => [
      [
        'Security',
        m.security === 'none' ? (
          <span className="text-warning">None (plain text)</span>
        ) : (
          `${m.security === 'tls' ? 'TLS from the start' : 'STARTTLS required'}, ${
            m.ignoreTrust ? 'any issuer accepted' : 'certificate verified'
          }, warns ${plural(m.warnDays, 'day')} before expiry`
        ),
      ],
    ],
  };
  return display as unknown as KindDisplay<T>;
}

/** One entry per monitor type. */
export const kindDisplays: { [T in MonitorType]: KindDisplay<T> } = {
  http: {
    label: 'HTTP',
    target: (m) => m.url,
    headerTarget: (m) => (
      <a href={m.url} target="_blank" rel="noopener noreferrer" className="mhead__url">
        <span className="mhead__method">{m.method}</span>
        <span className="mhead__href">{m.url}</span>
        <Icon name="external" size={13} />
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    ),
    settings: (m) => [
      ['Accepted status', m.acceptedStatusCodes.join(', ')],
      [
        'Domain registration',
        m.domainExpiry
          ? `Watched, warns ${plural(m.domainExpiry.warnDays, 'day')} before expiry`
          : 'Not watched',
      ],
      ['Redirects', m.followRedirects ? `Followed, up to ${m.maxRedirects}` : 'Not followed'],
      [
        'Assertions',
        m.assertions.length === 0 ? (
          'Status code only'
        ) : (
          <ol className="settings__list">
            {m.assertions.map((a, i) => (
              <li key={i}>{assertionText(a)}</li>
            ))}
          </ol>
        ),
      ],
      ['Headers', m.headers.length ? m.headers.map((h) => h.name).join(', ') : 'None'],
      ['Body', m.bodyType === 'none' ? 'None' : `${BODY_LABEL[m.bodyType]}, ${bytes(m.body)}`],
      ['Authentication', authText(m.auth)],
      ['IP version', FAMILY_LABEL[m.ipFamily]],
      ['Body read limit', byteSize(m.maxBodyBytes)],
      [
        'TLS certificate',
        // Redirects may still lead to https, so the setting matters even on an http:// URL.
        m.ignoreTls ? (
          <span className="text-warning">Not verified</span>
        ) : m.url.startsWith('https:') ? (
          'Verified'
        ) : (
          'Verified if redirected to HTTPS'
        ),
      ],
    ],
    flag: (m) =>
      m.ignoreTls && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          TLS errors ignored
        </span>
      ),
  },
  group: {
    label: 'Group',
    target: (m) => plural(m.members.length, 'member'),
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">GROUP</span>
        <span className="mhead__href">{plural(m.members.length, 'member')}</span>
      </span>
    ),
    settings: (m) => [
      ['Members', <GroupMemberNames ids={m.members} />],
      [
        'Rule',
        m.rule === 'any_down'
          ? 'Down when any member is down'
          : m.rule === 'all_up'
            ? 'Up only when all members are up'
            : `Up while at least ${m.minUpPercent} % of members are up`,
      ],
    ],
  },
  domain: {
    label: 'Domain expiry',
    target: (m) => m.domain,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">RDAP</span>
        <span className="mhead__href">{m.domain}</span>
      </span>
    ),
    // The registration itself shows in its panel, as a certificate does (lastDetails.domain).
    settings: (m) => [['Warns', `${plural(m.warnDays, 'day')} before expiry`]],
  },
  tcp: {
    label: 'TCP',
    target: (m) => hostPort(m.host, m.port),
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">TCP</span>
        <span className="mhead__href">{hostPort(m.host, m.port)}</span>
      </span>
    ),
    settings: (m) => [
      ['Sends', m.send ? <code className="settings__code">{m.send}</code> : 'Nothing'],
      [
        'Expects',
        m.expect ? <code className="settings__code">{m.expect}</code> : 'A connection is enough',
      ],
    ],
  },
  dns: {
    label: 'DNS',
    target: dnsQuestion,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">DNS</span>
        <span className="mhead__href">{dnsQuestion(m)}</span>
      </span>
    ),
    settings: (m) => [
      ['Record', m.recordType],
      ['DNS server', m.resolver === '' ? 'System resolvers' : m.resolver],
      [
        'Expects',
        m.expected.length === 0 ? (
          'Any answer'
        ) : (
          <>
            {m.expected.length > 1 && (m.match === 'all' ? 'All of ' : 'Any of ')}
            {m.expected.map((value, i) => (
              <span key={i}>
                {i > 0 && ', '}
                <code className="settings__code">{value}</code>
              </span>
            ))}
          </>
        ),
      ],
    ],
  },
  tls: {
    label: 'TLS',
    target: (m) => hostPort(m.host, m.port),
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">TLS</span>
        <span className="mhead__href">{hostPort(m.host, m.port)}</span>
      </span>
    ),
    settings: (m) => [
      ['Name checked', m.servername || m.host],
      ['Warns', `${plural(m.warnDays, 'day')} before expiry`],
      [
        'Issuer',
        m.ignoreTrust ? <span className="text-warning">Not verified</span> : 'Must be trusted',
      ],
    ],
    flag: (m) =>
      m.ignoreTrust && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          Any issuer accepted
        </span>
      ),
  },
  push: {
    label: 'Push',
    target: () => 'push',
    headerTarget: () => (
      <span className="mhead__url">
        <span className="mhead__method">PUSH</span>
        <span className="mhead__href">Heartbeat from a job</span>
      </span>
    ),
    settings: (m) => [
      ...(m.schedule.kind === 'interval'
        ? []
        : ([
            [
              m.schedule.kind === 'cron' ? 'Cron schedule' : 'OnCalendar schedule',
              <code key="s">{m.schedule.expression}</code>,
            ],
            ['Time zone', m.schedule.timezone.replaceAll('_', ' ')],
          ] as [string, ReactNode][])),
      ['Grace period', m.graceSeconds > 0 ? formatSeconds(m.graceSeconds) : 'None'],
      ['Last ping', m.lastPingAt ? <RelativeTime iso={m.lastPingAt} /> : 'None yet'],
      [
        'Next ping expected',
        m.nextPingExpectedAt ? <RelativeTime iso={m.nextPingExpectedAt} /> : 'Not known',
      ],
      ['Last run took', m.lastRunMs === null ? 'Not reported' : formatRunTime(m.lastRunMs)],
    ],
    cadence: (m) =>
      m.schedule.kind === 'interval'
        ? `Expected every ${formatSeconds(m.interval)}`
        : `Expected on ${m.schedule.expression} (${m.schedule.timezone.replaceAll('_', ' ')})`,
    passive: true,
    Panel: PushUrlPanel,
  },
  browser: {
    label: 'Browser',
    target: (m) => m.url,
    headerTarget: (m) => (
      <a href={m.url} target="_blank" rel="noopener noreferrer" className="mhead__url">
        <span className="mhead__method">{m.viewport === 'phone' ? 'PHONE' : 'BROWSER'}</span>
        <span className="mhead__href">{m.url}</span>
        <Icon name="external" size={13} />
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    ),
    settings: (m) => [
      ['Viewport', m.viewport === 'phone' ? 'Phone (390 × 844)' : 'Desktop (1280 × 800)'],
      [
        'Delivered once',
        m.waitFor === 'selector' ? (
          <>
            <code className="settings__code">{m.waitSelector}</code> shows
          </>
        ) : (
          waitText[m.waitFor]
        ),
      ],
      ['Must show', m.requiredText ? `“${m.requiredText}”` : 'Nothing in particular'],
      [
        'Must have',
        m.requiredSelector ? (
          <code className="settings__code">{m.requiredSelector}</code>
        ) : (
          'Nothing in particular'
        ),
      ],
      [
        'LCP above',
        m.lcpThresholdMs === null ? 'No threshold' : `${m.lcpThresholdMs} ms is degraded`,
      ],
      ['JavaScript errors', m.failOnJsError ? 'Take the monitor down' : 'Reported only'],
      ['Basic auth', m.basicAuth ? `As ${m.basicAuth.username}` : 'None'],
      ['Headers', m.headers.length ? m.headers.map((h) => h.name).join(', ') : 'None'],
    ],
    Panel: ({ monitor }) => (
      <Suspense fallback={null}>
        <BrowserPanels monitorId={monitor.id} />
      </Suspense>
    ),
  },
  postgres: databaseDisplay('PostgreSQL', 'postgres', (m) =>
    queryRows(m.query, 'SELECT 1', m.expected),
  ),
  mysql: databaseDisplay('MySQL', 'mysql', (m) => queryRows(m.query, 'SELECT 1', m.expected)),
  redis: databaseDisplay('Redis', 'redis', (m) => queryRows(m.command, 'PING', m.expected)),
  mongodb: databaseDisplay('MongoDB', 'mongodb', () => [['Runs', 'ping']]),
  ping: {
    label: 'Ping',
    target: (m) => m.host,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">PING</span>
        <span className="mhead__href">{m.host}</span>
      </span>
    ),
    settings: (m) => [
      ['Echo requests', `${m.count}, ${m.packetIntervalMs} ms apart`],
      ['Address family', FAMILY_LABEL[m.ipFamily]],
      [
        'Loss allowed',
        m.lossDegradedPercent === 0 ? 'None: any loss degrades' : `${m.lossDegradedPercent} %`,
      ],
    ],
  },
  udp: {
    label: 'UDP',
    target: (m) => `udp://${hostPort(m.host, m.port)}`,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">UDP</span>
        <span className="mhead__href">{hostPort(m.host, m.port)}</span>
      </span>
    ),
    settings: (m) => [
      [
        'Sends',
        <>
          <code className="settings__code">{m.send}</code>
          {m.format === 'hex' ? ' (hex)' : ''}
        </>,
      ],
      [
        'Expects',
        m.expect === '' ? 'Any reply' : <code className="settings__code">{m.expect}</code>,
      ],
    ],
  },
  websocket: {
    label: 'WebSocket',
    target: (m) => m.url,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">{m.url.startsWith('wss:') ? 'WSS' : 'WS'}</span>
        <span className="mhead__href">{m.url}</span>
      </span>
    ),
    settings: (m) => [
      ['Sends', m.send === '' ? 'Nothing' : <code className="settings__code">{m.send}</code>],
      [
        'Expects',
        m.expectKind === 'none' ? (
          'The upgrade and a clean close'
        ) : m.expectKind === 'keyword' ? (
          <>
            A message containing <code className="settings__code">{m.expectValue}</code>
          </>
        ) : (
          <>
            <code className="settings__code">{m.expectPath}</code>{' '}
            {m.expectValue === '' ? (
              'present'
            ) : (
              <>
                equal to <code className="settings__code">{m.expectValue}</code>
              </>
            )}
          </>
        ),
      ],
      ['Headers', m.headers.length ? m.headers.map((h) => h.name).join(', ') : 'None'],
      ...(m.url.startsWith('wss:')
        ? ([
            [
              'Certificate',
              m.ignoreTls ? <span className="text-warning">Not verified</span> : 'Must be valid',
            ],
          ] as [string, ReactNode][])
        : []),
    ],
    flag: (m) =>
      m.ignoreTls && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          TLS errors ignored
        </span>
      ),
  },
  grpc: {
    label: 'gRPC',
    target: (m) => `grpc${m.tls ? 's' : ''}://${hostPort(m.host, m.port)}`,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">GRPC</span>
        <span className="mhead__href">{hostPort(m.host, m.port)}</span>
      </span>
    ),
    settings: (m) => [
      [
        'Health of',
        m.service === '' ? 'The whole server' : <code className="settings__code">{m.service}</code>,
      ],
      [
        'TLS',
        !m.tls ? (
          'Off'
        ) : m.ignoreTls ? (
          <span className="text-warning">On, not verified</span>
        ) : (
          'On, certificate verified'
        ),
      ],
      ['Metadata', m.headers.length ? m.headers.map((h) => h.name).join(', ') : 'None'],
    ],
    flag: (m) =>
      m.tls &&
      m.ignoreTls && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          TLS errors ignored
        </span>
      ),
  },
  mqtt: {
    label: 'MQTT',
    target: mqttTarget,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">MQTT</span>
        <span className="mhead__href">{mqttTarget(m)}</span>
      </span>
    ),
    settings: (m) => [
      ...brokerRows(m),
      ['Checks', MQTT_MODE[m.mode]],
      ...(m.mode === 'connect'
        ? []
        : ([['Topic', <code className="settings__code">{m.topic}</code>]] as [
            string,
            ReactNode,
          ][])),
      ...(m.mode !== 'subscribe'
        ? []
        : ([
            [
              'Message',
              m.match === 'json' ? (
                <>
                  <code className="settings__code">{m.jsonPath}</code>
                  {m.expected === '' ? ' present' : ` equals “${m.expected}”`}
                </>
              ) : m.expected === '' ? (
                'Any message'
              ) : (
                `Contains “${m.expected}”`
              ),
            ],
          ] as [string, ReactNode][])),
    ],
    flag: brokerFlag,
  },
  amqp: {
    label: 'RabbitMQ',
    target: amqpTarget,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">AMQP</span>
        <span className="mhead__href">{amqpTarget(m)}</span>
      </span>
    ),
    settings: (m) => [
      ...brokerRows(m),
      ['Virtual host', <code className="settings__code">{m.vhost}</code>],
      [
        'Queue',
        m.queue === '' ? (
          'None checked'
        ) : (
          <>
            <code className="settings__code">{m.queue}</code>
            {m.maxDepth === null
              ? ' must exist'
              : ` must exist with at most ${plural(m.maxDepth, 'ready message')}`}
          </>
        ),
      ],
    ],
    flag: brokerFlag,
  },
  smtp: {
    label: 'SMTP',
    target: smtpTarget,
    headerTarget: (m) => (
      <span className="mhead__url">
        <span className="mhead__method">SMTP</span>
        <span className="mhead__href">{smtpTarget(m)}</span>
      </span>
    ),
    settings: (m) => [
      [
        'Security',
        m.security === 'none' ? (
          <span className="text-warning">None (plain text)</span>
        ) : (
          `${m.security === 'tls' ? 'TLS from the start' : 'STARTTLS required'}, ${
            m.ignoreTrust ? 'any issuer accepted' : 'certificate verified'
          }, warns ${plural(m.warnDays, 'day')} before expiry`
        ),
      ],
      ['EHLO as', m.ehloName === '' ? 'pagewatch.invalid' : m.ehloName],
      [
        'Required capabilities',
        m.capabilities.length === 0 ? 'None in particular' : m.capabilities.join(', '),
      ],
    ],
    flag: (m) =>
      m.security !== 'none' &&
      m.ignoreTrust && (
        <span className="flag flag--warning">
          <Icon name="shield" size={13} />
          Any issuer accepted
        </span>
      ),
  },
  imap: mailboxDisplay('IMAP', 'imap'),
  pop3: mailboxDisplay('POP3', 'pop3'),
};

const waitText: Record<Of<'browser'>['waitFor'], string> = {
  load: 'The load event',
  networkidle: 'The network going quiet',
  selector: 'An element showing',
};

/** The display entry of a monitor's own type. */
export const displayOf = (m: Monitor): KindDisplay<MonitorType> =>
  kindDisplays[m.type] as KindDisplay<MonitorType>;
