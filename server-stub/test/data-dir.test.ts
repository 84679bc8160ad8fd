// What --data-dir leaves on disk: files only their owner reads, tokens only as digests.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'sitebeam/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestStub } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeam-data-'));
  dirs.push(dir);
  return dir;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

async function createAccount(stub: Awaited<ReturnType<typeof startTestStub>>, email: string) {
  const response = await stub.request('/__stub/accounts', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, email_api: true, ai_api: true }),
  });
  return ((await response.json()) as { token: string }).token;
}

describe('--data-dir', () => {
  it('writes every file 0600 and keeps tokens only as digests', async () => {
    const dataDir = tempDir();
    const stub = await startTestStub({ dataDir });
    const token = await createAccount(stub, 'kept@example.com');
    await createClient({ baseUrl: stub.url, token }).sendEmail({
      to: 'a@example.com',
      subject: 's',
    });
    await stub.request('/v1/tracker/json/kept.example');
    await stub.close();

    for (const file of ['accounts.jsonl', 'emails.jsonl', 'visits.jsonl']) {
      expect(modeOf(join(dataDir, file)).toString(8), file).toBe('600');
    }
    const accounts = readFileSync(join(dataDir, 'accounts.jsonl'), 'utf8');
    expect(accounts).toContain('kept@example.com');
    expect(accounts).not.toContain(token);

    const again = await startTestStub({ dataDir });
    try {
      expect((await createClient({ baseUrl: again.url, token }).listModels()).status).toBe('ok');
    } finally {
      await again.close();
    }
  });

  it('loads a directory written with tokens in clear, and rewrites it with digests, 0600', async () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'accounts.jsonl');
    const oldLines = [
      {
        op: 'create',
        account: {
          email: 'old@example.com',
          token: 'old-clear-token',
          email_api: true,
          ai_api: false,
        },
      },
      { op: 'patch', email: 'old@example.com', ai_api: true },
    ];
    writeFileSync(file, oldLines.map((line) => `${JSON.stringify(line)}\n`).join(''), {
      mode: 0o644,
    });

    const stub = await startTestStub({ dataDir });
    try {
      const client = createClient({ baseUrl: stub.url, token: 'old-clear-token' });
      expect((await client.listModels()).status).toBe('ok');
      expect(readFileSync(file, 'utf8')).not.toContain('old-clear-token');
      expect(modeOf(file).toString(8)).toBe('600');
    } finally {
      await stub.close();
    }
    const again = await startTestStub({ dataDir });
    try {
      const client = createClient({ baseUrl: again.url, token: 'old-clear-token' });
      expect((await client.listModels()).status).toBe('ok');
    } finally {
      await again.close();
    }
  });
});
describe('captured mail in memory', () => {
  const send = (stub: Awaited<ReturnType<typeof startTestStub>>, subject: string) =>
    stub.client.sendEmail({ to: 'a@example.com', subject, content: 'x'.repeat(1000) });
  const subjects = async (stub: Awaited<ReturnType<typeof startTestStub>>) =>
    (
      (await (await stub.request('/__stub/emails')).json()) as {
        emails: Array<{ message: { subject: string } }>;
      }
    ).emails.map((email) => email.message.subject);

  it('stays under --history-bytes: the oldest leave memory first, the files keep everything', async () => {
    const dataDir = tempDir();
    const stub = await startTestStub({ dataDir, historyBytes: 2500 });
    for (const subject of ['one', 'two', 'three', 'four']) await send(stub, subject);
    expect(await subjects(stub)).toEqual(['three', 'four']);
    await stub.close();
    const lines = readFileSync(join(dataDir, 'emails.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).message.subject)).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);

    const again = await startTestStub({ dataDir, historyBytes: 2500 });
    try {
      expect(await subjects(again)).toEqual(['three', 'four']);
    } finally {
      await again.close();
    }
  });

  it('keeps the newest message even when it alone is over the cap', async () => {
    const stub = await startTestStub({ historyBytes: 100 });
    try {
      await send(stub, 'big');
      await send(stub, 'bigger');
      expect(await subjects(stub)).toEqual(['bigger']);
    } finally {
      await stub.close();
    }
  });
});
