import { statusPageLimits } from '@pagewatch/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import {
  findComponent,
  moveComponent,
  moveSection,
  newKey,
  stepSpot,
  type Draft,
  type DraftComponent,
  type Spot,
} from '../draft';
import { AddMonitor, type PickableMonitor } from './AddMonitor';
import { ComponentRow, componentLabel } from './ComponentRow';
import { SectionHead } from './SectionHead';
import { useDrag } from './use-drag';

interface SectionsEditorProps {
  draft: Draft;
  onChange: (next: Draft) => void;
  errorFor: (path: string) => string | undefined;
  monitors: readonly PickableMonitor[];
  monitorsLoading: boolean;
}

const sectionName = (title: string, i: number) => title.trim() || `Section ${i + 1}`;

/** Sections and their components: add, rename, remove, and order by drag or keyboard. */
export function SectionsEditor({
  draft,
  onChange,
  errorFor,
  monitors,
  monitorsLoading,
}: SectionsEditorProps) {
  const hintId = useId();
  const [announcement, setAnnouncement] = useState('');
  // After a keyboard move the handle re-mounts (another list): give it focus back.
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (!refocus) return;
    document.querySelector<HTMLElement>(`[data-handle="${refocus}"]`)?.focus();
    setRefocus(null);
  }, [refocus, draft]);

  const onPage = useMemo(
    () => new Set(draft.sections.flatMap((s) => s.components.map((c) => c.monitorId))),
    [draft.sections],
  );
  const available = monitors.filter((m) => !onPage.has(m.id));

  const placeComponent = (key: string, to: Spot) => {
    const next = moveComponent(draft, key, to);
    const moved = next.sections[to.section]?.components.find((c) => c.key === key);
    onChange(next);
    setRefocus(key);
    if (moved) {
      const section = next.sections[to.section]!;
      const at = findComponent(next, key)!;
      setAnnouncement(
        `${componentLabel(moved)} moved to position ${at.index + 1} of ${section.components.length} in ${sectionName(section.title, to.section)}.`,
      );
    }
  };
  const placeSection = (from: number, to: number) => {
    const next = moveSection(draft, from, to);
    if (next === draft) return;
    const moved = next.sections[to]!;
    onChange(next);
    setRefocus(moved.key);
    setAnnouncement(
      `Section ${sectionName(moved.title, to)} moved to position ${to + 1} of ${next.sections.length}.`,
    );
  };
  const drag = useDrag(draft, { component: placeComponent, section: placeSection });

  const patchSection = (i: number, patch: Partial<Draft['sections'][number]>) =>
    onChange({
      ...draft,
      sections: draft.sections.map((s, j) => (j === i ? { ...s, ...patch } : s)),
    });
  const patchComponent = (i: number, key: string, patch: Partial<DraftComponent>) =>
    patchSection(i, {
      components: draft.sections[i]!.components.map((c) =>
        c.key === key ? { ...c, ...patch } : c,
      ),
    });
  return (
    <div className="sp-sections">
      <p id={hintId} className="form__note">
        Drag the handles, or focus one and press Alt+↑ or Alt+↓, to change the order.
      </p>
      <p className="visually-hidden" aria-live="polite" data-testid="reorder-announcement">
        {announcement}
      </p>
      {draft.sections.map((s, si) => {
        const name = sectionName(s.title, si);
        const marker = drag.hint?.target === `section:${si}` ? drag.hint.where : null;
        return (
          <section
            key={s.key}
            className={`sp-section${marker ? ` sp-drop-${marker}` : ''}`}
            aria-label={`Section ${name}`}
            data-testid="status-section"
            {...drag.onSection(si)}
          >
            <SectionHead
              sectionKey={s.key}
              index={si}
              count={draft.sections.length}
              name={name}
              title={s.title}
              error={errorFor(`sections.${si}.title`)}
              hintId={hintId}
              onTitle={(title) => patchSection(si, { title })}
              onMove={(to) => placeSection(si, to)}
              onRemove={() =>
                onChange({ ...draft, sections: draft.sections.filter((_, j) => j !== si) })
              }
              onDragStart={(e) =>
                drag.start({ type: 'section', index: si }, e.currentTarget.closest('section'))(e)
              }
              onDragEnd={drag.end}
            />
            {s.components.length === 0 ? (
              <p className="sp-section__empty muted">No monitors yet. Add one, or drop one here.</p>
            ) : (
              <ul className="sp-comps" aria-label={`Components of ${name}`}>
                {s.components.map((c, ci) => {
                  const spot = { section: si, index: ci };
                  return (
                    <ComponentRow
                      key={c.key}
                      component={c}
                      path={`sections.${si}.components.${ci}`}
                      errorFor={errorFor}
                      sections={draft.sections}
                      section={si}
                      first={stepSpot(draft, spot, -1) === null}
                      last={stepSpot(draft, spot, 1) === null}
                      hintId={hintId}
                      drop={drag.hint?.target === c.key ? drag.hint.where : null}
                      dropTarget={drag.onComponent(c.key)}
                      onDragStart={(row) => drag.start({ type: 'component', key: c.key }, row)}
                      onDragEnd={drag.end}
                      onChange={(patch) => patchComponent(si, c.key, patch)}
                      onStep={(step) => {
                        const to = stepSpot(draft, spot, step);
                        if (to) placeComponent(c.key, to);
                      }}
                      onMoveTo={(section) =>
                        placeComponent(c.key, {
                          section,
                          index: draft.sections[section]?.components.length ?? 0,
                        })
                      }
                      onRemove={() =>
                        patchSection(si, {
                          components: s.components.filter((x) => x.key !== c.key),
                        })
                      }
                    />
                  );
                })}
              </ul>
            )}
            <AddMonitor
              sectionName={name}
              available={available}
              loading={monitorsLoading}
              onAdd={(m) =>
                patchSection(si, {
                  components: [
                    ...s.components,
                    {
                      key: newKey('c'),
                      monitorId: m.id,
                      monitorName: m.name,
                      displayName: '',
                      description: '',
                      showLocations: false,
                    },
                  ],
                })
              }
            />
          </section>
        );
      })}
      {draft.sections.length < statusPageLimits.sectionsMax && (
        <div>
          <Button
            icon="plus"
            onClick={() =>
              onChange({
                ...draft,
                sections: [...draft.sections, { key: newKey('s'), title: '', components: [] }],
              })
            }
          >
            Add section
          </Button>
        </div>
      )}
    </div>
  );
}
