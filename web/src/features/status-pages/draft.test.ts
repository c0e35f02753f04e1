import { describe, expect, it } from 'vitest';
import {
  emptyDraft,
  findComponent,
  moveComponent,
  moveSection,
  slugify,
  stepSpot,
  toInput,
  type Draft,
} from './draft';

function draft(layout: Record<string, string[]>): Draft {
  let id = 0;
  return {
    ...emptyDraft(),
    sections: Object.entries(layout).map(([title, names]) => ({
      key: title,
      title,
      components: names.map((name) => ({
        key: name,
        monitorId: ++id,
        monitorName: name,
        displayName: '',
        description: '',
        showLocations: false,
      })),
    })),
  };
}

const layout = (d: Draft) =>
  Object.fromEntries(d.sections.map((s) => [s.title, s.components.map((c) => c.key)]));

describe('status page draft', () => {
  it('suggests a slug from the title', () => {
    expect(slugify('Acme Cloud — EU')).toBe('acme-cloud-eu');
    expect(slugify('  Café Status!! ')).toBe('cafe-status');
    expect(slugify('x'.repeat(80))).toHaveLength(63);
  });

  it('moves a component within its section and into another one', () => {
    const d = draft({ Core: ['api', 'web'], Data: ['db'] });
    expect(layout(moveComponent(d, 'web', { section: 0, index: 0 }))).toEqual({
      Core: ['web', 'api'],
      Data: ['db'],
    });
    expect(layout(moveComponent(d, 'api', { section: 1, index: 0 }))).toEqual({
      Core: ['web'],
      Data: ['api', 'db'],
    });
  });

  it('steps across section edges by keyboard, and stops at the ends', () => {
    const d = draft({ Core: ['api', 'web'], Data: ['db'] });
    expect(stepSpot(d, findComponent(d, 'db')!, -1)).toEqual({ section: 0, index: 2 });
    expect(stepSpot(d, findComponent(d, 'web')!, 1)).toEqual({ section: 1, index: 0 });
    expect(stepSpot(d, findComponent(d, 'api')!, -1)).toBeNull();
    expect(stepSpot(d, findComponent(d, 'db')!, 1)).toBeNull();
  });

  it('reorders sections and sends an empty custom domain as none', () => {
    const d = draft({ Core: ['api'], Data: ['db'] });
    expect(layout(moveSection(d, 1, 0))).toEqual({ Data: ['db'], Core: ['api'] });
    expect(moveSection(d, 0, 5)).toBe(d);
    const input = toInput({ ...d, customDomain: '  ' });
    expect(input.customDomain).toBeNull();
    expect(input.sections?.[0]?.components).toEqual([
      { monitorId: 1, displayName: '', description: '', showLocations: false },
    ]);
  });
});
