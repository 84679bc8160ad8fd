// What the stub captures (emails, visits): the latest in memory, everything in the journal.
import { join } from 'node:path';
import { BoundedHistory } from './bounded-history.js';
import { Journal } from './journal.js';

export class CapturedLog<T> {
  private readonly history: BoundedHistory<T>;
  private readonly journal: Journal | undefined;

  constructor(name: string, limit: number, dataDir: string | undefined) {
    this.history = new BoundedHistory<T>(limit);
    if (dataDir) {
      const path = join(dataDir, `${name}.jsonl`);
      for (const entry of Journal.readAll<T>(path)) this.history.push(entry);
      this.journal = new Journal(path);
    }
  }

  add(entry: T) {
    this.journal?.append(entry);
    this.history.push(entry);
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
