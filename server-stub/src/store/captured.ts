// What the stub captures (emails, visits): the latest in memory, within a count and a byte budget
// measured on each entry's JSON; everything in the journal.
import { join } from 'node:path';
import { BoundedHistory } from './bounded-history.js';
import { Journal } from './journal.js';

export class CapturedLog<T> {
  private readonly history: BoundedHistory<T>;
  private readonly journal: Journal | undefined;

  constructor(name: string, limits: { items: number; bytes: number }, dataDir: string | undefined) {
    this.history = new BoundedHistory<T>(limits.items, limits.bytes);
    if (dataDir) {
      const path = join(dataDir, `${name}.jsonl`);
      for (const { entry, bytes } of Journal.read<T>(path)) this.history.push(entry, bytes);
      this.journal = new Journal(path);
    }
  }

  add(entry: T) {
    const line = JSON.stringify(entry);
    this.journal?.appendLine(line);
    this.history.push(entry, Buffer.byteLength(line));
  }

  list(): T[] {
    return this.history.list();
  }

  find(predicate: (entry: T) => boolean): T | undefined {
    return this.history.find(predicate);
  }

  clear() {
    this.journal?.clear();
    this.history.clear();
  }

  close() {
    this.journal?.close();
  }
}
