import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/lib/fifo.js';

describe('the scheduler’s waiting queue (Fifo)', () => {
  it('hands items back in the order they came, across many compactions', () => {
    const q = new Fifo<number>();
    let next = 0;
    const out: number[] = [];
    // Interleaved bursts: the queue grows, shrinks past its compaction point, and grows again.
    for (let burst = 0; burst < 50; burst++) {
      for (let i = 0; i < 3000; i++) q.push(next++);
      for (let i = 0; i < 2500; i++) out.push(q.shift()!);
    }
    expect(q.length).toBe(next - out.length);
    while (q.length > 0) out.push(q.shift()!);
    expect(out.length).toBe(next);
    expect(out.every((v, i) => v === i)).toBe(true);
    expect(q.shift()).toBeUndefined();
  });

  it('is empty after clear and usable again', () => {
    const q = new Fifo<string>();
    q.push('a');
    q.push('b');
    q.clear();
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
    q.push('c');
    expect(q.shift()).toBe('c');
  });
});
