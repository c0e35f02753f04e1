import type { AlertEvent } from '@pagewatch/contract';
import { plain, type Escape } from './escape.js';
import { formatTime, humanDuration } from './format.js';

/** The names a `{{placeholder}}` may use; see docs/notifications.md. */
export const placeholderNames = [
  'monitor.name',
  'monitor.target',
  'monitor.type',
  'status',
  'previous_status',
  'cause.code',
  'cause.message',
  'cause.phase',
  'outage',
  'url',
  'at',
  'incident.title',
  'incident.state',
  'incident.message',
  'certificate.days_left',
  'event',
] as const;

export type PlaceholderValues = Record<(typeof placeholderNames)[number], string>;

export function placeholderValues(event: AlertEvent, url: string | null): PlaceholderValues {
  return {
    'monitor.name': event.monitor?.name ?? '',
    'monitor.target': event.monitor?.target ?? '',
    'monitor.type': event.monitor?.type ?? '',
    status: event.status ?? '',
    previous_status: event.previousStatus ?? '',
    'cause.code': event.cause?.code ?? '',
    'cause.message': event.cause?.message ?? '',
    'cause.phase': event.cause?.phase ?? '',
    outage: event.outageMs === null ? '' : humanDuration(event.outageMs),
    url: url ?? '',
    at: formatTime(event.at),
    'incident.title': event.incident?.title ?? '',
    'incident.state': event.incident?.state ?? '',
    'incident.message': event.incident?.message ?? '',
    'certificate.days_left': event.certificate ? String(event.certificate.daysLeft) : '',
    event: event.kind,
  };
}

/**
 * Fills `{{ name }}` placeholders, each value passed through `escape`; unknown names become
 * empty so a typo never leaks template syntax into an alert.
 */
export function fillTemplate(
  template: string,
  values: PlaceholderValues,
  escape: Escape = plain,
): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = (values as Record<string, string | undefined>)[name];
    return value === undefined ? '' : escape(value);
  });
}
