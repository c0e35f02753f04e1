import { configKinds, type ConfigDocument } from '@pagewatch/contract';
import { referenceFieldOf } from '../domain/monitor-types.js';
import type { ConfigProblem, DocPath } from './paths.js';
import { monitorKeysNamed } from './to-inputs.js';

const error = (path: DocPath, message: string): ConfigProblem => ({
  path,
  message,
  severity: 'error',
});

const singular = {
  channels: 'channel',
  monitors: 'monitor',
  statusPages: 'status page',
  maintenance: 'maintenance window',
  slos: 'SLO',
} as const;

/** Each key once per kind; the second and later uses are reported, naming the first. */
function duplicateKeys(document: ConfigDocument): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const kind of configKinds) {
    const first = new Map<string, number>();
    document[kind].forEach((entry, i) => {
      const at = first.get(entry.key);
      if (at === undefined) first.set(entry.key, i);
      else
        problems.push({
          ...error(
            [kind, i, 'key'],
            `Another ${singular[kind]} already has the key "${entry.key}"`,
          ),
          related: [kind, at, 'key'],
        });
    });
  }
  return problems;
}

/**
 * What the document's references name must be in the document: monitors' channels, channels'
 * fallback and reroute channels, status pages' monitors and email channel, maintenance
 * windows' monitors, SLOs' monitors and components.
 */
function unknownReferences(document: ConfigDocument): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const channels = new Map(document.channels.map((c) => [c.key, c.kind]));
  const monitors = new Set(document.monitors.map((m) => m.key));
  const monitorRef = (path: DocPath, key: string) => {
    if (!monitors.has(key)) problems.push(error(path, `No monitor has the key "${key}"`));
  };
  const channelRef = (path: DocPath, key: string | null) => {
    if (key !== null && !channels.has(key))
      problems.push(error(path, `No channel has the key "${key}"`));
  };
  document.channels.forEach((c, i) => {
    channelRef(['channels', i, 'fallbackChannel'], c.fallbackChannel);
    channelRef(['channels', i, 'quietHours', 'rerouteChannel'], c.quietHours.rerouteChannel);
  });
  document.monitors.forEach((m, i) => {
    (m.channels ?? []).forEach((key, ci) => {
      if (!channels.has(key)) {
        problems.push(error(['monitors', i, 'channels', ci], `No channel has the key "${key}"`));
      }
    });
    const field = referenceFieldOf(m.type);
    if (field)
      monitorKeysNamed(m).forEach((key, ki) => monitorRef(['monitors', i, field, ki], key));
  });
  document.statusPages.forEach((page, i) => {
    page.sections.forEach((s, si) =>
      s.components.forEach((c, ci) =>
        monitorRef(['statusPages', i, 'sections', si, 'components', ci, 'monitor'], c.monitor),
      ),
    );
    const email = page.subscriptions.emailChannel;
    if (email !== null && channels.get(email) !== 'email') {
      problems.push(
        error(
          ['statusPages', i, 'subscriptions', 'emailChannel'],
          channels.has(email)
            ? `The channel "${email}" is not an email channel`
            : `No channel has the key "${email}"`,
        ),
      );
    }
  });
  document.maintenance.forEach((w, i) => {
    if (w.scope.kind === 'monitors') {
      w.scope.monitors.forEach((key, mi) =>
        monitorRef(['maintenance', i, 'scope', 'monitors', mi], key),
      );
    }
  });
  document.slos.forEach((slo, i) => {
    const subject = slo.subject;
    if (subject.kind === 'tag') return;
    const at: DocPath = ['slos', i, 'subject'];
    monitorRef([...at, 'monitor'], subject.monitor);
    if (subject.kind !== 'component') return;
    const page = document.statusPages.find((p) => p.key === subject.statusPage);
    if (!page) {
      problems.push(
        error([...at, 'statusPage'], `No status page has the key "${subject.statusPage}"`),
      );
    } else if (
      !page.sections.some((s) => s.components.some((c) => c.monitor === subject.monitor))
    ) {
      problems.push(
        error(
          [...at, 'monitor'],
          `The status page "${subject.statusPage}" does not show the monitor "${subject.monitor}"`,
        ),
      );
    }
  });
  return problems;
}

/** Two pages of the document on one slug or domain would collide when written. */
function duplicatePageAddresses(document: ConfigDocument): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const field of ['slug', 'customDomain'] as const) {
    const first = new Map<string, number>();
    document.statusPages.forEach((page, i) => {
      const value = page[field];
      if (value === null) return;
      const at = first.get(value);
      if (at === undefined) first.set(value, i);
      else
        problems.push({
          ...error(['statusPages', i, field], `Another status page already uses "${value}"`),
          related: ['statusPages', at, field],
        });
    });
  }
  return problems;
}

/** What a schema cannot see: keys unique per kind, and every reference known. */
export function crossChecks(document: ConfigDocument): ConfigProblem[] {
  return [
    ...duplicateKeys(document),
    ...duplicatePageAddresses(document),
    ...unknownReferences(document),
  ];
}
