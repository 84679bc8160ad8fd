// Accounts and their tokens. Tokens are kept as SHA-256 digests and compared in constant time.
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
  | { op: 'create'; account: Account & { token: string } }
  | { op: 'patch'; email: string; email_api?: boolean; ai_api?: boolean };

export const defaultAccount = {
  email: 'dev@example.test',
  token: 'dev-token',
  email_api: true,
  ai_api: true,
};

const digestOf = (token: string) => createHash('sha256').update(token).digest();

export class AccountStore {
  private readonly accounts = new Map<string, StoredAccount>();
  private readonly journal: Journal | undefined;

  constructor(initial: Array<Account & { token: string }>, dataDir: string | undefined) {
    for (const account of initial) this.put(account);
    if (dataDir) {
      const path = join(dataDir, 'accounts.jsonl');
      for (const event of Journal.readAll<AccountEvent>(path)) this.apply(event);
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

  create(account: Account): Account & { token: string } {
    const created = { ...account, token: randomBytes(24).toString('base64url') };
    this.record({ op: 'create', account: created });
    return created;
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
      this.put(event.account);
      return;
    }
    const account = this.accounts.get(event.email.toLowerCase());
    if (!account) return;
    if (event.email_api !== undefined) account.email_api = event.email_api;
    if (event.ai_api !== undefined) account.ai_api = event.ai_api;
  }

  private put({ token, ...account }: Account & { token: string }) {
    this.accounts.set(account.email.toLowerCase(), { ...account, digest: digestOf(token) });
  }

  close() {
    this.journal?.close();
  }
}
