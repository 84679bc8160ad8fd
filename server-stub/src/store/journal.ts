// An append-only JSON Lines file. Each line is written synchronously, so once a handler has
// appended, the line is in the operating system's hands: a kill -9 right after the 2xx loses nothing.
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export class Journal {
  private readonly fd: number;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a');
  }

  /** Every line written so far, parsed; a torn last line (a crash mid-write) is skipped. */
  static readAll<T>(path: string): T[] {
    if (!existsSync(path)) return [];
    const entries: T[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as T);
      } catch {
        // A partial line can only be the last one; nothing after it was acknowledged.
      }
    }
    return entries;
  }

  append(entry: unknown) {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }

  clear() {
    ftruncateSync(this.fd, 0);
  }

  close() {
    closeSync(this.fd);
  }
}
