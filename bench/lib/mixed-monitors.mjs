// The mix of the mixed-monitors bench and each type's monitor body, against the peers of
// bench/lib/mixed-peers.mjs, the HTTP target and the machine's shared services.
// Roughly a real installation: mostly HTTP, then ping, TCP and DNS, a few hundred of each other
// type. MongoDB has no server on this machine, so it is left out (see docs/benchmarks.md).

/** Monitors per type out of 10,000; scaled when BENCH_MONITORS differs. */
export const MIX = {
  http: 4750,
  ping: 800,
  tcp: 800,
  dns: 700,
  tls: 400,
  push: 400,
  cron: 200,
  domain: 300,
  udp: 200,
  websocket: 200,
  grpc: 200,
  redis: 200,
  mqtt: 200,
  postgres: 150,
  mysql: 150,
  amqp: 150,
  smtp: 100,
  imap: 50,
  pop3: 50,
};

/** The counts for `total` monitors, in MIX's proportions (HTTP takes the rounding). */
export function mixFor(total) {
  const base = Object.values(MIX).reduce((a, b) => a + b, 0);
  const counts = Object.fromEntries(
    Object.entries(MIX).map(([k, v]) => [k, Math.max(1, Math.round((v * total) / base))]),
  );
  counts.http += total - Object.values(counts).reduce((a, b) => a + b, 0);
  return counts;
}

const env = (name, fallback) => new URL(process.env[name] ?? fallback);
const pg = env('PAGEWATCH_TEST_POSTGRES_URL', 'postgres://postgres@127.0.0.1:5432/test');
const my = env('PAGEWATCH_TEST_MYSQL_URL', 'mysql://root@127.0.0.1:3306/test');
const redis = env('PAGEWATCH_TEST_REDIS_URL', 'redis://127.0.0.1:6379');
const amqp = env('PAGEWATCH_TEST_AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672');
const mqtt = env('PAGEWATCH_TEST_MQTT_URL', 'mqtt://127.0.0.1:1883');
const user = (u, d) => decodeURIComponent(u.username) || d;

/** 127.0.x.y for the n-th ping host (n ≥ 1), skipping .0 and .255. */
const pingHost = (n) => `127.0.${Math.floor(n / 250)}.${(n % 250) + 1}`;

/**
 * The body of the i-th monitor of `type` (i from 0), every `interval` seconds. `target` is the
 * HTTP target, `ports` the peers' ports.
 */
export function bodyFor(type, i, { interval, target, ports }) {
  const name = `${type} ${String(i).padStart(4, '0')}`;
  const common = { name, interval, timeout: 5, retries: 1, paused: false };
  const local = { ...common, host: '127.0.0.1' };
  switch (type) {
    case 'http':
      return { ...common, type, url: target.url(`/m/${i}`) };
    case 'ping':
      // A new monitor's defaults: 3 echo requests 1 s apart.
      return { ...common, type, host: pingHost(i + 1) };
    case 'tcp':
      return { ...local, type, port: ports.tcp, expect: 'SSH-' };
    case 'dns':
      return {
        ...common,
        type,
        host: `svc${i}.bench.test`,
        recordType: 'A',
        resolver: `127.0.0.1:${ports.dns}`,
        expected: ['127.0.0.1'],
      };
    case 'tls':
      // Self-signed: trust is not judged, expiry and the name are.
      return { ...local, type, port: ports.tls, ignoreTrust: true };
    case 'push':
      return { ...common, type, graceSeconds: 60 };
    case 'cron':
      return {
        ...common,
        type: 'push',
        graceSeconds: 60,
        schedule: { kind: 'cron', expression: '* * * * *', timezone: 'Europe/Berlin' },
      };
    case 'domain':
      return { ...common, type, domain: `site${i}.test`, warnDays: 30 };
    case 'udp':
      return { ...local, type, port: ports.udp, send: 'ping', expect: 'ping' };
    case 'websocket':
      return {
        ...common,
        type,
        url: `ws://127.0.0.1:${ports.websocket}/`,
        send: 'hi',
        expectKind: 'keyword',
        expectValue: 'echo: hi',
      };
    case 'grpc':
      return { ...local, type, port: ports.grpc };
    case 'redis':
      return { ...common, type, host: redis.hostname, port: Number(redis.port || 6379) };
    case 'mqtt':
      return { ...common, type, host: mqtt.hostname, port: Number(mqtt.port || 1883) };
    case 'postgres':
      return {
        ...common,
        type,
        host: pg.hostname,
        port: Number(pg.port || 5432),
        database: pg.pathname.slice(1),
        username: user(pg, 'postgres'),
      };
    case 'mysql':
      return {
        ...common,
        type,
        host: my.hostname,
        port: Number(my.port || 3306),
        database: my.pathname.slice(1),
        username: user(my, 'root'),
      };
    case 'amqp':
      return {
        ...common,
        type,
        host: amqp.hostname,
        port: Number(amqp.port || 5672),
        username: user(amqp, 'guest'),
        password: decodeURIComponent(amqp.password) || 'guest',
      };
    case 'smtp':
      return { ...local, type, port: ports.smtp, security: 'starttls', ignoreTrust: true };
    case 'imap':
    case 'pop3':
      return { ...local, type, port: ports[type], security: 'none' };
    default:
      throw new Error(`no body for ${type}`);
  }
}
