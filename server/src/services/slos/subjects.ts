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

/** Every monitor's tags, read only when some SLO is about a tag. */
const tagsIfNeeded = (deps: SubjectDeps, slos: readonly Pick<StoredSlo, 'subject'>[]) =>
  slos.some((s) => s.subject.kind === 'tag')
    ? deps.repos.slos.monitorTags()
    : Promise.resolve([] as { id: number; tags: string[] }[]);

/** The monitors a subject covers now: its own monitor, or the ones carrying its tag. */
function monitorsOf(subject: SloSubject, tagged: readonly { id: number; tags: string[] }[]) {
  return subject.kind === 'tag'
    ? tagged.filter((m) => m.tags.includes(subject.tag)).map((m) => m.id)
    : [subject.monitorId];
}

/**
 * Each SLO's monitors without their names: what the burn-rate evaluator needs every minute,
 * in one read when a tag is involved and none otherwise (names are read for an alert only).
 */
export async function subjectMonitorIds(
  deps: SubjectDeps,
  slos: readonly Pick<StoredSlo, 'id' | 'subject'>[],
): Promise<Map<number, number[]>> {
  const tagged = await tagsIfNeeded(deps, slos);
  return new Map(slos.map((s) => [s.id, monitorsOf(s.subject, tagged)]));
}

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
  const [names, titles, tagged] = await Promise.all([
    deps.repos.slos.monitorNames([...new Set(monitorIds)]),
    deps.repos.slos.pageTitles([...new Set(pageIds)]),
    tagsIfNeeded(deps, slos),
  ]);
  const out = new Map<number, ResolvedSubject>();
  for (const s of slos) out.set(s.id, resolveOne(s.subject, names, titles, tagged));
  return out;
}

function resolveOne(
  subject: SloSubject,
  names: Map<number, string>,
  titles: Map<number, string>,
  tagged: readonly { id: number; tags: string[] }[],
): ResolvedSubject {
  const monitorIds = monitorsOf(subject, tagged);
  if (subject.kind === 'tag') return { monitorIds, label: `tag: ${subject.tag}` };
  const name = names.get(subject.monitorId) ?? `monitor ${subject.monitorId}`;
  if (subject.kind === 'component') {
    const page = titles.get(subject.statusPageId) ?? `page ${subject.statusPageId}`;
    return { monitorIds, label: `${page} / ${name}` };
  }
  return { monitorIds, label: name };
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
