import { Unmappable } from './monitor-http.js';
import type { KumaMonitor } from './source.js';

/** Kuma's database types and the Pagewatch type each becomes. */
const databaseTypes: Record<string, 'postgres' | 'mysql' | 'redis' | 'mongodb'> = {
  postgres: 'postgres',
  mysql: 'mysql',
  redis: 'redis',
  mongodb: 'mongodb',
};

/** libpq's sslmode values that encrypt; only the verify ones check the certificate. */
const PG_TLS = new Set(['require', 'verify-ca', 'verify-full', 'prefer']);

function parse(text: string, type: string): URL {
  const raw = text.trim();
  if (raw === '') throw new Unmappable('it has no connection string');
  if (/^mongodb\+srv:/i.test(raw)) {
    throw new Unmappable(
      'its mongodb+srv:// address needs DNS seed-list discovery, which Pagewatch does not do; a monitor per server (mongodb://host:port) works',
    );
  }
  // Replica sets list several hosts (a,b,c:27017); the URL parser takes only one.
  const oneHost = raw.replace(/^([a-z+]+:\/\/(?:[^@/]*@)?)([^,/]+),[^/]*/i, '$1$2');
  try {
    return new URL(oneHost);
  } catch {
    throw new Unmappable(`its ${type} connection string could not be read`);
  }
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A Kuma database monitor (connection string, optional query) as Pagewatch settings: host,
 * port, database, user and password taken apart, TLS from the scheme or the URL's options.
 */
export function databaseFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  const type = databaseTypes[m.type];
  if (type === undefined) throw new Unmappable(`Pagewatch has no "${m.type}" monitor`);
  if (m.upsideDown) {
    throw new Unmappable(`upside-down mode of a ${m.type} monitor has no Pagewatch equivalent`);
  }
  const connection = m.databaseConnectionString ?? '';
  const url = parse(connection, m.type);
  if (connection.includes(','))
    notes.push(`Only the first host of ${url.hostname}'s set is checked`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const path = decode(url.pathname.replace(/^\//, ''));
  const options = url.searchParams;
  const username = decode(url.username);
  // Kuma's MySQL form keeps the password apart (in its radius_password column).
  const password = m.type === 'mysql' && m.radiusPassword ? m.radiusPassword : decode(url.password);
  const fields: Record<string, unknown> = {
    type,
    host,
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    username,
    ...(password === '' ? {} : { password }),
  };
  const query = (m.databaseQuery ?? '').trim();
  if (type === 'postgres' || type === 'mysql') {
    fields.database = path;
    if (query !== '') {
      fields.query = query;
      notes.push('Its query runs in a read-only session in Pagewatch: a query that writes fails');
    }
    const sslmode = options.get('sslmode') ?? (options.get('ssl') === 'true' ? 'require' : '');
    if (PG_TLS.has(sslmode)) {
      fields.tls = true;
      // require and prefer encrypt without checking who answers.
      if (sslmode === 'require' || sslmode === 'prefer') fields.ignoreTrust = true;
    }
  }
  if (type === 'redis') {
    if (path !== '') fields.database = Number(path);
    fields.tls = url.protocol === 'rediss:';
    if (fields.tls === true && m.ignoreTls) fields.ignoreTrust = true;
  }
  if (type === 'mongodb') {
    fields.database = options.get('authSource') ?? (path === '' ? 'admin' : path);
    const tls = options.get('tls') ?? options.get('ssl');
    fields.tls = tls === 'true';
    if (fields.tls === true && options.get('tlsAllowInvalidCertificates') === 'true') {
      fields.ignoreTrust = true;
    }
  }
  return fields;
}
