/// <reference types="node" />
// `sitebeam-relay outbox list|retry ID|delete ID`: the owner's view of the outbox, straight from
// Redis (SITEBEAM_REDIS_URL, the store the Node relays share), or from any relay's admin route
// (`--url`, with SITEBEAM_ADMIN_SECRET in the environment: a Worker's Durable Object, Deno KV).
import { parseArgs } from 'node:util';
import { baseUrlProblem } from '../../client/base-url.js';
import { visibleControls, visibleJson } from '../../client/index.js';
import { RelayConfigError } from '../env.js';
import { importNeedingRedis, REDIS_URL_ENV, redisFromEnv } from '../redis-env.js';
import { OUTBOX_ADMIN_PATH } from './admin.js';
import type { OutboxChange, OutboxEntry } from './outbox.js';

export const outboxExitCodes = {
  ok: 0,
  failed: 1,
  usage: 2,
  secret: 3,
  notFound: 4,
  busy: 5,
} as const;

const ADMIN_SECRET_ENV = 'SITEBEAM_ADMIN_SECRET';

export const outboxUsage = `Usage: sitebeam-relay outbox list [--json] [--url URL]
       sitebeam-relay outbox retry ID [--json] [--url URL]
       sitebeam-relay outbox delete ID [--json] [--url URL]

The messages the relay keeps because the instance could not take them yet (waiting), and those it
gave up (refused for good, or not delivered in time): recipient, subject, tries, the last error in
words and the next try. retry tries one now (a given-up one gets a new lifetime); delete removes one.

Where: ${REDIS_URL_ENV} (the Redis the Node relays share), or --url https://relay.example.com,
a relay's admin route (${OUTBOX_ADMIN_PATH}) with the secret in ${ADMIN_SECRET_ENV} (set the same
on the relay; it is never taken on the command line, so it stays out of the shell's history).

Options:
  --json      print the answer as JSON
  --url URL   a relay's origin (https; plain http only for localhost)
  --help      this text

Exit codes:
  0  done
  1  the store or the relay failed or could not be reached
  2  usage: unknown command or option, no store to look at
  3  the admin secret is missing, or the relay refused it
  4  no such message
  5  the message is being sent right now: ask again in a minute`;

/** What the command talks to: the same three operations, from Redis or over HTTP. */
interface Source {
  name: string;
  list(): Promise<OutboxEntry[]>;
  change(action: 'retry' | 'delete', id: string): Promise<OutboxChange>;
  close(): Promise<void>;
}

class CommandError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

export interface CommandIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
  now?: () => number;
}

const defaultIo: CommandIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Runs the command; answers the exit code. */
export async function outboxCommand(args: string[], io: CommandIo = defaultIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(args);
  } catch (error) {
    io.err(`sitebeam-relay outbox: ${(error as Error).message}\n${outboxUsage}\n`);
    return outboxExitCodes.usage;
  }
  if (parsed.help) {
    io.out(`${outboxUsage}\n`);
    return outboxExitCodes.ok;
  }
  let source: Source | undefined;
  try {
    source = await openSource(parsed.url, io);
    if (parsed.action === 'list') {
      const messages = await source.list();
      io.out(
        parsed.json
          ? `${visibleJson(JSON.stringify({ status: 'ok', store: source.name, messages }))}\n`
          : describe(source.name, messages, (io.now ?? Date.now)()),
      );
      return outboxExitCodes.ok;
    }
    const id = parsed.id as string;
    const change = await source.change(parsed.action, id);
    const code =
      change === 'done'
        ? outboxExitCodes.ok
        : change === 'not_found'
          ? outboxExitCodes.notFound
          : outboxExitCodes.busy;
    const said = {
      done: parsed.action === 'retry' ? `Message ${id} is tried now.` : `Message ${id} deleted.`,
      not_found: `No message ${id} in the outbox of ${source.name}.`,
      busy: `Message ${id} is being sent right now: ask again in a minute.`,
    }[change];
    if (parsed.json) {
      io.out(
        `${visibleJson(JSON.stringify({ status: change === 'done' ? 'ok' : 'ko', result: change, id }))}\n`,
      );
    } else (code === 0 ? io.out : io.err)(`${visibleControls(said)}\n`);
    return code;
  } catch (error) {
    const code = error instanceof CommandError ? error.code : outboxExitCodes.failed;
    const text = error instanceof Error ? error.message : String(error);
    io.err(`sitebeam-relay outbox: ${visibleControls(text, { oneLine: true })}\n`);
    return code;
  } finally {
    await source?.close();
  }
}

interface Parsed {
  help: boolean;
  action: 'list' | 'retry' | 'delete';
  id?: string | undefined;
  json: boolean;
  url?: string | undefined;
}

function parse(args: string[]): Parsed {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      url: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const [action, id, ...extra] = positionals;
  if (values.help) return { help: true, action: 'list' as const, json: false };
  if (action !== 'list' && action !== 'retry' && action !== 'delete') {
    throw new Error(
      action ? `unknown command "${action}"` : 'which command: list, retry or delete?',
    );
  }
  if (action === 'list' ? id !== undefined : id === undefined || extra.length > 0) {
    throw new Error(action === 'list' ? 'list takes no ID' : `${action} takes one message ID`);
  }
  return { help: false, action, id, json: values.json, url: values.url };
}

async function openSource(url: string | undefined, io: CommandIo): Promise<Source> {
  if (url !== undefined) return adminRoute(url, io);
  let redis: ReturnType<typeof redisFromEnv>;
  try {
    redis = redisFromEnv(io.env);
  } catch (error) {
    if (error instanceof RelayConfigError)
      throw new CommandError(outboxExitCodes.usage, error.message);
    throw error;
  }
  if (!redis) {
    throw new CommandError(
      outboxExitCodes.usage,
      `no outbox to look at: set ${REDIS_URL_ENV} (the Redis your Node relays share) or pass --url (a relay's admin route)`,
    );
  }
  const { openRedisOutbox } = await importNeedingRedis(() => import('./redis-outbox.js'));
  const outbox = openRedisOutbox({ url: redis.url, name: redis.description });
  const name = redis.description;
  const failed = (error: unknown): never => {
    const why = error instanceof Error ? error.message : String(error);
    throw new CommandError(outboxExitCodes.failed, `${name} failed: ${why}`);
  };
  return {
    name,
    list: () => outbox.list().catch(failed),
    change: (action, id) =>
      (action === 'retry' ? outbox.retry(id) : outbox.remove(id)).catch(failed),
    close: () => outbox.close(),
  };
}

function adminRoute(origin: string, io: CommandIo): Source {
  const problem = baseUrlProblem(origin);
  if (problem) throw new CommandError(outboxExitCodes.usage, `--url ${problem}`);
  const secret = io.env[ADMIN_SECRET_ENV]?.trim();
  if (!secret) {
    throw new CommandError(
      outboxExitCodes.secret,
      `${ADMIN_SECRET_ENV} is not set: export the secret the relay was given`,
    );
  }
  const base = `${new URL(origin).origin}${OUTBOX_ADMIN_PATH}`;
  const call = async (path: string, method: string) => {
    let response: Response;
    try {
      response = await (io.fetch ?? fetch)(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, accept: 'application/json' },
        // A redirect would carry the secret wherever it points.
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new CommandError(
        outboxExitCodes.failed,
        `${base} could not be reached (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.status === 401) {
      throw new CommandError(outboxExitCodes.secret, `the relay refused ${ADMIN_SECRET_ENV}`);
    }
    if (body.i18n_code === 'not_configured') {
      throw new CommandError(outboxExitCodes.failed, `${base}: ${String(body.error)}`);
    }
    if (response.ok || response.status === 404 || response.status === 409) {
      return { status: response.status, body };
    }
    const said = typeof body.error === 'string' ? `: ${body.error}` : '';
    throw new CommandError(outboxExitCodes.failed, `${base} answered ${response.status}${said}`);
  };
  return {
    name: base,
    async list() {
      const { status, body } = await call('', 'GET');
      if (status !== 200 || !Array.isArray(body.messages)) {
        throw new CommandError(outboxExitCodes.failed, `${base} answered no list of messages`);
      }
      return body.messages as OutboxEntry[];
    },
    async change(action, id) {
      const path = `/${encodeURIComponent(id)}${action === 'retry' ? '/retry' : ''}`;
      const { status } = await call(path, action === 'retry' ? 'POST' : 'DELETE');
      return status === 200 ? 'done' : status === 409 ? 'busy' : 'not_found';
    },
    close: async () => undefined,
  };
}

const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

function inWords(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  const span =
    seconds < 120
      ? `${seconds} s`
      : seconds < 7200
        ? `${Math.round(seconds / 60)} min`
        : `${Math.round(seconds / 3600)} h`;
  return ms >= 0 ? `in ${span}` : `${span} ago`;
}

/** The list for a terminal: one block per message, every text with its controls made visible. */
function describe(store: string, messages: OutboxEntry[], now: number): string {
  const count = (state: OutboxEntry['state']) =>
    messages.filter((message) => message.state === state).length;
  const lines = [
    `Outbox of ${store}: ${messages.length} message${messages.length === 1 ? '' : 's'} (${count('waiting')} waiting, ${count('sending')} being sent, ${count('given_up')} given up).`,
  ];
  for (const message of messages) {
    const state =
      message.state === 'waiting'
        ? `waiting, next try ${message.nextTryAt === undefined ? 'soon' : `${when(message.nextTryAt)} (${inWords(message.nextTryAt - now)})`}`
        : message.state === 'sending'
          ? 'being sent now'
          : `given up${message.givenUpAt === undefined ? '' : ` ${when(message.givenUpAt)}`}`;
    lines.push(
      '',
      `${message.id}  ${state}`,
      `  to:         ${message.to}`,
      `  subject:    ${message.subject}`,
      `  tries:      ${message.tries}`,
      `  last error: ${message.lastError ?? '(none)'}`,
      `  accepted:   ${when(message.acceptedAt)} (${inWords(message.acceptedAt - now)})`,
    );
  }
  return `${lines.map((line) => visibleControls(line, { oneLine: true })).join('\n')}\n`;
}
