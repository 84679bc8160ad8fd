/** The latest `limit` items, oldest first: memory stays flat however many arrive. */
export class BoundedHistory<T> {
  private items: T[] = [];
  private start = 0;

  constructor(private readonly limit: number) {}

  push(item: T) {
    if (this.items.length < this.limit) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.limit;
  }

  list(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  find(predicate: (item: T) => boolean): T | undefined {
    return this.items.find(predicate);
  }

  clear() {
    this.items = [];
    this.start = 0;
  }
}
