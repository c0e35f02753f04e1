import { Unmappable } from './monitor-http.js';
import type { KumaMonitor } from './source.js';

/** A JSONata query that is only a path (`status`, `$.data.ok`, `items[0].id`). */
const SIMPLE_PATH = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*|\[\d+\])*$/;

/** Kuma's MQTT address: a bare host, or a URL whose scheme says TLS (mqtts, ssl, tls) or not. */
function mqttAddress(m: KumaMonitor): { host: string; port: number | null; tls: boolean } {
  const raw = (m.hostname ?? '').trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return { host: raw, port: null, tls: false };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Unmappable(`its broker address "${raw}" could not be read`);
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (scheme === 'ws' || scheme === 'wss') {
    throw new Unmappable('MQTT over WebSocket has no Pagewatch equivalent (MQTT over TCP does)');
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? null : Number(url.port),
    tls: scheme === 'mqtts' || scheme === 'ssl' || scheme === 'tls',
  };
}

/**
 * A Kuma MQTT monitor: it subscribes to the topic and wants a message containing its success
 * text, or (json-query) whose JSONata value equals the expected one; a JSONata query that is a
 * plain path becomes a JSON path.
 */
export function mqttFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  if (m.upsideDown) {
    throw new Unmappable('upside-down mode of an MQTT monitor has no Pagewatch equivalent');
  }
  const address = mqttAddress(m);
  const fields: Record<string, unknown> = {
    type: 'mqtt',
    host: address.host,
    port: m.port ?? address.port ?? (address.tls ? 8883 : 1883),
    tls: address.tls,
    ignoreTrust: m.ignoreTls,
    username: m.mqttUsername ?? '',
    password: m.mqttPassword ?? '',
  };
  const topic = (m.mqttTopic ?? '').trim();
  if (topic === '') return { ...fields, mode: 'connect' };
  notes.push(
    'Kuma waited up to the interval for a message; Pagewatch waits for the timeout (a retained message counts at once)',
  );
  if (m.mqttCheckType === 'json-query') {
    const query = (m.jsonPath ?? '').trim().replace(/^\$\.?/, '');
    if (!SIMPLE_PATH.test(query)) {
      throw new Unmappable(
        `its JSONata query "${m.jsonPath ?? ''}" is more than a path, which Pagewatch's JSON path cannot express`,
      );
    }
    const operator = m.jsonPathOperator ?? '==';
    if (operator !== '==') {
      throw new Unmappable(
        `its comparison "${operator}" has no Pagewatch equivalent (equals does)`,
      );
    }
    return {
      ...fields,
      mode: 'subscribe',
      topic,
      match: 'json',
      jsonPath: `$.${query}`,
      expected: m.expectedValue ?? '',
    };
  }
  return {
    ...fields,
    mode: 'subscribe',
    topic,
    match: 'keyword',
    expected: m.mqttSuccessMessage ?? '',
  };
}

/**
 * A Kuma RabbitMQ monitor asks the management API (HTTP, port 15672) whether a node is healthy;
 * Pagewatch logs in over AMQP instead, on the AMQP port of the first node's host.
 */
export function rabbitmqFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  let nodes: unknown;
  try {
    nodes = JSON.parse(m.rabbitmqNodes ?? '[]');
  } catch {
    nodes = null;
  }
  const urls = Array.isArray(nodes) ? nodes.filter((n): n is string => typeof n === 'string') : [];
  const first = urls[0];
  if (first === undefined) throw new Unmappable('it names no RabbitMQ node');
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    throw new Unmappable(`its node address "${first}" could not be read`);
  }
  if (urls.length > 1)
    notes.push(`Only the first node (${url.host}) is checked; Kuma had ${urls.length}`);
  const tls = url.protocol === 'https:';
  const port = tls ? 5671 : 5672;
  notes.push(
    `Kuma asked the management API at ${url.origin}; Pagewatch logs in over AMQP on port ${port} (change the port if the broker listens elsewhere)`,
  );
  return {
    type: 'amqp',
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    tls,
    vhost: '/',
    username: m.rabbitmqUsername || 'guest',
    password: m.rabbitmqPassword ?? '',
  };
}

/** Kuma's SMTP security: `secure` is TLS from the start, `nostarttls` plain, `starttls` required. */
export function smtpFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  if (m.upsideDown) {
    throw new Unmappable('upside-down mode of an SMTP monitor has no Pagewatch equivalent');
  }
  const security =
    m.smtpSecurity === 'secure' ? 'tls' : m.smtpSecurity === 'nostarttls' ? 'none' : 'starttls';
  if (
    m.smtpSecurity !== 'secure' &&
    m.smtpSecurity !== 'nostarttls' &&
    m.smtpSecurity !== 'starttls'
  ) {
    notes.push(
      'Kuma used STARTTLS when the server offered it; Pagewatch requires it (choose None to allow plain text)',
    );
  }
  return {
    type: 'smtp',
    host: m.hostname ?? '',
    port: m.port ?? (security === 'tls' ? 465 : 25),
    security,
    ignoreTrust: m.ignoreTls,
  };
}
