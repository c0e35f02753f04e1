/**
 * First in, first out, with O(1) push and shift. `Array.prototype.shift` moves every element:
 * with tens of thousands of checks waiting for a free slot (a burst, a takeover) the
 * scheduler spent over half its CPU moving the queue instead of running checks.
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    // Compact once the consumed prefix is half the array: amortised O(1), bounded memory.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
