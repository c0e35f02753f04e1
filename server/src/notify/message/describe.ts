import type { AlertEvent } from '@pagewatch/contract';
import type { Escape } from './escape.js';
import { groupWording } from './group-wording.js';
import { sloFields, sloWording } from './slo-wording.js';
import { channelHealthWording } from './channel-health-wording.js';
import { formatTime, humanDuration, phaseLabel, type Tone } from './format.js';

export interface MessageField {
  label: string;
  /** Plain text; escape it for the output format. */
  value: string;
}

/** The default wording of one event, before any template or output format. */
export interface Description {
  title: string;
  /** One paragraph; user-typed parts pass through `esc`. */
  summary: (esc: Escape) => string;
  fields: MessageField[];
  tone: Tone;
}

const CERT_DAYS_CRITICAL = 7;

function causeText(e: AlertEvent): string {
  const c = e.cause;
  if (!c) return '';
  if (c.message && c.code) return `${c.message} (${c.code})`;
  return c.message ?? c.code ?? '';
}

function eventFields(e: AlertEvent): MessageField[] {
  const f: [string, string | null | undefined][] = [];
  if (e.monitor) {
    f.push(['Monitor', e.monitor.name], ['Target', e.monitor.target]);
  }
  if (e.status) {
    const was = e.previousStatus ? ` (was ${e.previousStatus})` : '';
    f.push(['Status', `${e.status}${was}`]);
  }
  f.push(['Cause', causeText(e)]);
  if (e.cause?.phase) f.push(['Failed while', phaseLabel(e.cause.phase)]);
  if (e.outageMs !== null) f.push(['Outage', humanDuration(e.outageMs)]);
  if (e.kind !== 'monitor.up' && e.cause?.since) {
    f.push(['Down since', formatTime(e.cause.since)]);
  }
  if (e.downChecks !== null) f.push(['Failed checks', String(e.downChecks)]);
  if (e.certificate) {
    f.push(['Certificate expires', formatTime(e.certificate.expiresAt)]);
    f.push(['Days left', String(e.certificate.daysLeft)]);
  }
  if (e.incident) {
    f.push(['Incident', e.incident.title], ['State', e.incident.state]);
    f.push(['Severity', e.incident.severity]);
  }
  f.push(...sloFields(e));
  f.push(['At', formatTime(e.at)]);
  return f.filter(([, v]) => v).map(([label, value]) => ({ label, value: value! }));
}

type Wording = Omit<Description, 'fields'>;

const w = (title: string, tone: Tone, summary: (x: Escape) => string): Wording => ({
  title,
  tone,
  summary,
});

function certificateWording(e: AlertEvent, name: string): Wording {
  const days = e.certificate?.daysLeft ?? 0;
  const when = e.certificate ? `on ${formatTime(e.certificate.expiresAt)}` : 'soon';
  const tone = days <= CERT_DAYS_CRITICAL ? 'critical' : 'warning';
  return w(`Certificate of ${name} expires in ${days} days`, tone, (x) => {
    return `The TLS certificate of ${x(name)} expires in ${days} days, ${when}.`;
  });
}

function monitorWording(e: AlertEvent, name: string): Wording {
  const cause = causeText(e);
  const because = (x: Escape) => (cause ? `: ${x(cause)}` : '');
  switch (e.kind) {
    case 'monitor.down':
      return w(`${name} is down`, 'critical', (x) => `${x(name)} is down${because(x)}.`);
    case 'monitor.up': {
      const after = e.outageMs === null ? '' : ` after ${humanDuration(e.outageMs)} of downtime`;
      return w(`${name} is up`, 'ok', (x) => `${x(name)} is up again${after}.`);
    }
    case 'monitor.degraded':
      return w(`${name} is degraded`, 'warning', (x) => `${x(name)} is degraded${because(x)}.`);
    case 'monitor.regional':
      return w(
        `${name} is down in some locations`,
        'warning',
        (x) => `${x(name)} is down in some locations${because(x)}.`,
      );
    case 'monitor.still_down':
      return w(
        `${name} is still down`,
        'critical',
        (x) => `${x(name)} is still down${because(x)}.`,
      );
    case 'monitor.flapping':
      return w(`${name} is flapping`, 'warning', (x) => {
        return `${x(name)} keeps changing status; alerts for it are held back until it settles.`;
      });
    case 'monitor.settled': {
      const status = e.status ?? 'unknown';
      const tone: Tone = status === 'up' ? 'ok' : status === 'down' ? 'critical' : 'warning';
      return w(
        `${name} settled: ${status}`,
        tone,
        (x) => `${x(name)} has settled and is ${status}.`,
      );
    }
    case 'heartbeat.missed':
      return w(`${name} missed its heartbeat`, 'critical', (x) => {
        return `${x(name)} did not check in on time${because(x)}.`;
      });
    case 'certificate.expiring':
      return certificateWording(e, name);
    default:
      return w(`${name}: ${e.kind}`, 'info', (x) => `${x(name)}: ${e.kind}.`);
  }
}

function incidentWording(e: AlertEvent): Wording {
  const i = e.incident!;
  const note = (x: Escape) => (i.message ? ` ${x(i.message)}` : '');
  const tone: Tone = i.severity === 'minor' ? 'warning' : 'critical';
  if (e.kind === 'incident.resolved') {
    return {
      title: `Resolved: ${i.title}`,
      tone: 'ok',
      summary: (x) => `${x(i.title)} is resolved.${note(x)}`,
    };
  }
  if (e.kind === 'incident.updated') {
    return {
      title: `Incident update: ${i.title}`,
      tone,
      summary: (x) => `${x(i.title)} is ${i.state}.${note(x)}`,
    };
  }
  return {
    title: `Incident: ${i.title}`,
    tone,
    summary: (x) => `New ${i.severity} incident: ${x(i.title)} (${i.state}).${note(x)}`,
  };
}

export const TEST_TITLE = 'Test notification from Pagewatch';

/** Title, summary, detail fields and tone of an event in Pagewatch's default wording. */
export function describeEvent(e: AlertEvent): Description {
  let wording: Wording;
  if (e.kind === 'test') {
    wording = {
      title: TEST_TITLE,
      tone: 'info',
      summary: () =>
        'This is a test notification from Pagewatch. If you can read it, the channel works.',
    };
  } else if (e.kind.startsWith('incident.') && e.incident) {
    wording = incidentWording(e);
  } else if (channelHealthWording(e)) {
    wording = channelHealthWording(e)!;
  } else if (e.slo && sloWording(e)) {
    wording = sloWording(e)!;
  } else {
    wording = groupWording(e) ?? monitorWording(e, e.monitor?.name ?? 'A monitor');
  }
  return { ...wording, fields: e.kind === 'test' ? [] : eventFields(e) };
}
