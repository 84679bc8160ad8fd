import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Journal } from '../src/store/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'sitebeam-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reads lines across its read chunks, with their sizes, and skips a torn last line', () => {
  const path = join(dir, 'big.jsonl');
  const entries = [{ text: 'a'.repeat(600_000) }, { text: 'é'.repeat(900_000) }, { n: 1 }];
  const lines = entries.map((entry) => JSON.stringify(entry));
  writeFileSync(path, `${lines.join('\n')}\n{"torn":`);
  expect(Array.from(Journal.read(path))).toEqual(
    entries.map((entry, index) => ({ entry, bytes: Buffer.byteLength(lines[index] ?? '') })),
  );
});
