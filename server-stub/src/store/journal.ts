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
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

const OWNER_ONLY = 0o600;
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

function* parsedLine<T>(line: Buffer): Generator<{ entry: T; bytes: number }> {
  if (line.length === 0) return;
  try {
    yield { entry: JSON.parse(line.toString('utf8')) as T, bytes: line.length };
  } catch {
    // A partial line can only be the last one; nothing after it was acknowledged.
  }
}

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

  /**
   * Every line written so far, parsed, with its size in bytes; a torn last line (a crash mid-write)
   * is skipped. Read a chunk at a time, so a journal larger than memory or than a string can be
   * still loads into a bounded history.
   */
  static *read<T>(path: string): Generator<{ entry: T; bytes: number }> {
    if (!existsSync(path)) return;
    const fd = openSync(path, 'r');
    try {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      let partial: Buffer[] = [];
      for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
        const filled = chunk.subarray(0, read);
        let start = 0;
        for (let end = filled.indexOf(NEWLINE); end !== -1; end = filled.indexOf(NEWLINE, start)) {
          yield* parsedLine<T>(Buffer.concat([...partial, filled.subarray(start, end)]));
          partial = [];
          start = end + 1;
        }
        partial.push(Buffer.from(filled.subarray(start)));
      }
      yield* parsedLine<T>(Buffer.concat(partial));
    } finally {
      closeSync(fd);
    }
  }

  static readAll<T>(path: string): T[] {
    return Array.from(Journal.read<T>(path), ({ entry }) => entry);
  }

  append(entry: unknown) {
    this.appendLine(JSON.stringify(entry));
  }

  /** `json` is one entry already serialized, without its line break. */
  appendLine(json: string) {
    writeSync(this.fd, `${json}\n`);
  }

  clear() {
    ftruncateSync(this.fd, 0);
  }

  close() {
    closeSync(this.fd);
  }
}
