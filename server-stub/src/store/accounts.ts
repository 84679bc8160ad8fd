// Accounts and their tokens. Tokens are kept as SHA-256 digests, in memory and in --data-dir, and
// compared in constant time. A plain digest suffices: generated tokens carry 192 random bits.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal } from './journal.js';

export interface Account {
  email: string;
  email_api: boolean;
  ai_api: boolean;
}

interface StoredAccount extends Account {
  digest: Buffer;
}

type AccountEvent =
  | { op: 'create'; account: Account & { token_sha256: string } }
  | { op: 'patch'; email: string; email_api?: boolean; ai_api?: boolean };

/** What stubs wrote before tokens were kept as digests. */
type LegacyAccountEvent = { op: 'create'; account: Account & { token: string } };

export const defaultAccount = {
  email: 'dev@example.com',
  token: 'dev-token',
  email_api: true,
  ai_api: true,
};

const digestOf = (token: string) => createHash('sha256').update(token).digest();

function withDigest(event: AccountEvent | LegacyAccountEvent): AccountEvent {
  if (event.op !== 'create' || !('token' in event.account)) return event as AccountEvent;
  const { token, ...account } = event.account;
  return { op: 'create', account: { ...account, token_sha256: digestOf(token).toString('hex') } };
}

export class AccountStore {
  private readonly accounts = new Map<string, StoredAccount>();
  private readonly journal: Journal | undefined;

  constructor(initial: Array<Account & { token: string }>, dataDir: string | undefined) {
    for (const { token, ...account } of initial) this.put(account, digestOf(token));
    if (dataDir) {
      const path = join(dataDir, 'accounts.jsonl');
      const stored = Journal.readAll<AccountEvent | LegacyAccountEvent>(path);
      const events = stored.map(withDigest);
      if (events.some((event, index) => event !== stored[index])) Journal.rewrite(path, events);
      for (const event of events) this.apply(event);
      this.journal = new Journal(path);
    }
  }

  static readAccountsFile(path: string): Array<Account & { token: string }> {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { accounts?: unknown };
    if (!Array.isArray(parsed.accounts)) throw new Error(`${path}: "accounts" must be an array`);
    return parsed.accounts.map((entry, index) => {
      const account = entry as Record<string, unknown>;
      if (
        typeof account.email !== 'string' ||
        typeof account.token !== 'string' ||
        !account.token
      ) {
        throw new Error(`${path}: accounts[${index}] needs "email" and a non-empty "token"`);
      }
      return {
        email: account.email,
        token: account.token,
        email_api: account.email_api === true,
        ai_api: account.ai_api === true,
      };
    });
  }

  /** The account whose token this is; every stored digest is compared, so timing says nothing. */
  authenticate(token: string): Account | undefined {
    const digest = digestOf(token);
    let found: StoredAccount | undefined;
    for (const account of this.accounts.values()) {
      if (timingSafeEqual(account.digest, digest)) found = account;
    }
    return found && { email: found.email, email_api: found.email_api, ai_api: found.ai_api };
  }

  has(email: string): boolean {
    return this.accounts.has(email.toLowerCase());
  }

  /** Answers the generated token: the only time it exists outside a digest. */
  create(account: Account): Account & { token: string } {
    const token = randomBytes(24).toString('base64url');
    const token_sha256 = digestOf(token).toString('hex');
    this.record({ op: 'create', account: { ...account, token_sha256 } });
    return { ...account, token };
  }

  patch(
    email: string,
    changes: Partial<Pick<Account, 'email_api' | 'ai_api'>>,
  ): Account | undefined {
    if (!this.has(email)) return undefined;
    this.record({ op: 'patch', email, ...changes });
    const { digest: _digest, ...account } = this.accounts.get(email.toLowerCase()) as StoredAccount;
    return account;
  }

  private record(event: AccountEvent) {
    this.journal?.append(event);
    this.apply(event);
  }

  private apply(event: AccountEvent) {
    if (event.op === 'create') {
      const { token_sha256, ...account } = event.account;
      const digest = Buffer.from(String(token_sha256), 'hex');
      if (digest.length !== 32) {
        throw new Error(`accounts.jsonl: the account ${account.email} has no valid token_sha256`);
      }
      this.put(account, digest);
      return;
    }
    const account = this.accounts.get(event.email.toLowerCase());
    if (!account) return;
    if (event.email_api !== undefined) account.email_api = event.email_api;
    if (event.ai_api !== undefined) account.ai_api = event.ai_api;
  }

  private put(account: Account, digest: Buffer) {
    this.accounts.set(account.email.toLowerCase(), { ...account, digest });
  }

  close() {
    this.journal?.close();
  }
}
