// An append-only JSON Lines file. Each line is written synchronously, so once a handler has
// appended, the line is in the operating system's hands: a kill -9 right after the 2xx loses nothing.
// Only the owner may read it (0600, in a 0700 directory when the stub creates it): it holds
// captured mail and visitors' addresses.
import {
  closeSync,
  existsSync,
  fchmodSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

const OWNER_ONLY = 0o600;

const asLines = (entries: unknown[]) =>
  entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');

export class Journal {
  private readonly fd: number;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.fd = openSync(path, 'a', OWNER_ONLY);
    // The mode above applies only to a new file; one an older stub wrote 0644 is narrowed too.
    fchmodSync(this.fd, OWNER_ONLY);
  }

  /** Replaces the whole file at once (a crash leaves either the old or the new content). */
  static rewrite(path: string, entries: unknown[]) {
    const temporary = `${path}.tmp`;
    rmSync(temporary, { force: true });
    writeFileSync(temporary, asLines(entries), { mode: OWNER_ONLY });
    renameSync(temporary, path);
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
