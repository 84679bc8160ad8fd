/**
 * The latest items within a count and a byte budget, oldest first: the oldest leave first, so
 * memory stays flat however many arrive. The newest item is always kept, even alone over budget.
 */
export class BoundedHistory<T> {
  private entries: Array<{ item: T; bytes: number } | undefined> = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private readonly maxItems: number,
    private readonly maxBytes: number,
  ) {}

  private get size() {
    return this.entries.length - this.head;
  }

  push(item: T, bytes: number) {
    this.entries.push({ item, bytes });
    this.bytes += bytes;
    while (this.size > 1 && (this.size > this.maxItems || this.bytes > this.maxBytes)) {
      this.bytes -= this.entries[this.head]?.bytes ?? 0;
      // Dropped from the array at once, so the garbage collector can take it.
      this.entries[this.head] = undefined;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  list(): T[] {
    return this.live().map((entry) => entry.item);
  }

  find(predicate: (item: T) => boolean): T | undefined {
    return this.live().find((entry) => predicate(entry.item))?.item;
  }

  clear() {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
  }

  private live() {
    return this.entries.slice(this.head) as Array<{ item: T; bytes: number }>;
  }
}
