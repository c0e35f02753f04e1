import type { SloSubject } from '@pagewatch/contract';
import type { StoredSlo } from '../../db/repositories/slos.js';
import { validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** What an SLO's subject stands for now: its monitors and a name for people. */
export interface ResolvedSubject {
  monitorIds: number[];
  label: string;
}

type SubjectDeps = Pick<ServiceDeps, 'repos'>;

/**
 * Resolves many SLOs' subjects with three reads in all: a tag's monitors are the ones carrying
 * it now, so tagging a monitor adds it to the SLO from then on.
 */
export async function resolveSubjects(
  deps: SubjectDeps,
  slos: readonly Pick<StoredSlo, 'id' | 'subject'>[],
): Promise<Map<number, ResolvedSubject>> {
  const monitorIds = slos.flatMap((s) => (s.subject.kind === 'tag' ? [] : [s.subject.monitorId]));
  const pageIds = slos.flatMap((s) =>
    s.subject.kind === 'component' ? [s.subject.statusPageId] : [],
  );
  const needTags = slos.some((s) => s.subject.kind === 'tag');
  const [names, titles, tagged] = await Promise.all([
    deps.repos.slos.monitorNames([...new Set(monitorIds)]),
    deps.repos.slos.pageTitles([...new Set(pageIds)]),
    needTags ? deps.repos.slos.monitorTags() : Promise.resolve([]),
  ]);
  const out = new Map<number, ResolvedSubject>();
  for (const s of slos) out.set(s.id, resolveOne(s.subject, names, titles, tagged));
  return out;
}

function resolveOne(
  subject: SloSubject,
  names: Map<number, string>,
  titles: Map<number, string>,
  tagged: { id: number; tags: string[] }[],
): ResolvedSubject {
  if (subject.kind === 'tag') {
    return {
      monitorIds: tagged.filter((m) => m.tags.includes(subject.tag)).map((m) => m.id),
      label: `tag: ${subject.tag}`,
    };
  }
  const name = names.get(subject.monitorId) ?? `monitor ${subject.monitorId}`;
  if (subject.kind === 'component') {
    const page = titles.get(subject.statusPageId) ?? `page ${subject.statusPageId}`;
    return { monitorIds: [subject.monitorId], label: `${page} / ${name}` };
  }
  return { monitorIds: [subject.monitorId], label: name };
}

/** A subject must name things that exist: a monitor, or a component the page really shows. */
export async function checkSubject(deps: SubjectDeps, subject: SloSubject): Promise<void> {
  if (subject.kind === 'tag') return;
  const names = await deps.repos.slos.monitorNames([subject.monitorId]);
  if (!names.has(subject.monitorId))
    throw validationFailed(
      [{ path: 'subject.monitorId', message: 'No such monitor', code: 'custom' }],
      `Monitor ${subject.monitorId} does not exist`,
    );
  if (
    subject.kind === 'component' &&
    !(await deps.repos.slos.isComponent(subject.statusPageId, subject.monitorId))
  )
    throw validationFailed(
      [
        {
          path: 'subject.statusPageId',
          message: 'The page does not show this monitor',
          code: 'custom',
        },
      ],
      `Status page ${subject.statusPageId} has no component for monitor ${subject.monitorId}`,
    );
}
