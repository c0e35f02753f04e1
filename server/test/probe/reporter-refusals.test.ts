import { describe, expect, it } from 'vitest';
import { refusedItems } from '../../src/probe/reporter.js';

const all = (n: number) => [...Array.from({ length: n }, (_, i) => i)];

describe('which results of a batch the server refused', () => {
  it('are the items its errors name, so the rest is sent again', () => {
    const bad = refusedItems([{ path: 'items.1.monitorId' }, { path: 'items.3' }], 5);
    expect([...bad].sort()).toEqual([1, 3]);
  });

  it('are all of them when the refusal names no item: sending them again would loop forever', () => {
    expect([...refusedItems([], 4)]).toEqual(all(4));
    expect([...refusedItems([{ path: 'replayed' }], 4)]).toEqual(all(4));
    expect([...refusedItems([{ path: '' }, { path: 'items.0' }], 3)]).toEqual(all(3));
  });

  it('are all of them when an error names an item the batch does not have', () => {
    expect([...refusedItems([{ path: 'items.7' }], 2)]).toEqual(all(2));
    expect([...refusedItems([{ path: 'items.x' }], 2)]).toEqual(all(2));
  });
});
