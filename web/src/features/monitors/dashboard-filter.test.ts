import type { MonitorSummary } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  allTags,
  allTypes,
  applyStatusAndSort,
  countByStatus,
  filterByTagAndQuery,
} from './dashboard-filter';

let nextId = 1;
const monitor = (over: Partial<MonitorSummary>): MonitorSummary => ({
  id: nextId++,
  status: 'up',
  statusChangedAt: null,
  lastCheck: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  type: 'http',
  name: 'x',
  target: 'https://x.example.com',
  interval: 60,
  tags: [],
  paused: false,
  uptime24h: null,
  recent: { outcomes: '', latencyMs: [] },
  ...over,
});

const items = [
  monitor({ name: 'Shop 10', status: 'up', tags: ['prod'], uptime24h: 99.9 }),
  monitor({ name: 'Shop 2', status: 'down', tags: ['prod', 'eu'], uptime24h: 50 }),
  monitor({
    name: 'Blog',
    status: 'degraded',
    target: 'https://blog.example.org',
    uptime24h: null,
  }),
  monitor({ name: 'Docs', status: 'paused', tags: ['docs'] }),
];

describe('dashboard filtering', () => {
  it('filters by monitor type together with tag and text, and lists the types present', () => {
    const mixed = [
      ...items,
      monitor({ name: 'Database', type: 'tcp', target: 'db.example.com:5432', tags: ['prod'] }),
    ];
    expect(filterByTagAndQuery(mixed, { tag: null, type: 'tcp', query: '' })).toHaveLength(1);
    expect(filterByTagAndQuery(mixed, { tag: 'prod', type: 'http', query: '' })).toHaveLength(2);
    expect(filterByTagAndQuery(mixed, { tag: 'prod', type: 'tcp', query: 'shop' })).toHaveLength(0);
    expect(allTypes(mixed)).toEqual(['http', 'tcp']);
    expect(allTypes(items)).toEqual(['http']);
  });

  it('matches text in the name, the target or a tag, case-insensitively', () => {
    expect(filterByTagAndQuery(items, { tag: null, query: 'SHOP' }).map((m) => m.name)).toEqual([
      'Shop 10',
      'Shop 2',
    ]);
    expect(filterByTagAndQuery(items, { tag: null, query: 'example.org' })).toHaveLength(1);
    expect(filterByTagAndQuery(items, { tag: null, query: 'eu' })).toHaveLength(1);
    expect(filterByTagAndQuery(items, { tag: 'prod', query: '' })).toHaveLength(2);
  });

  it('sorts worst status first, then by name with numbers in order', () => {
    const sorted = applyStatusAndSort(items, { status: null, sort: 'status' }).map((m) => m.name);
    expect(sorted).toEqual(['Shop 2', 'Blog', 'Shop 10', 'Docs']);
    const byName = applyStatusAndSort(items, { status: null, sort: 'name' }).map((m) => m.name);
    expect(byName).toEqual(['Blog', 'Docs', 'Shop 2', 'Shop 10']);
  });

  it('puts unknown uptime last when sorting by lowest uptime', () => {
    const sorted = applyStatusAndSort(items, { status: null, sort: 'uptime' }).map((m) => m.name);
    expect(sorted.slice(0, 2)).toEqual(['Shop 2', 'Shop 10']);
  });

  it('counts by status and lists tags once, sorted', () => {
    expect(countByStatus(items)).toMatchObject({
      up: 1,
      down: 1,
      degraded: 1,
      paused: 1,
      pending: 0,
    });
    expect(allTags(items)).toEqual(['docs', 'eu', 'prod']);
    expect(applyStatusAndSort(items, { status: 'down', sort: 'name' })).toHaveLength(1);
  });
});
