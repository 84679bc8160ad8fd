// The stub's command-line flags (listed in the contract's "server stub's own surface").
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { knownModels } from 'sitebeam/client';
import { availableModels } from './models/registry.js';

export interface StubOptions {
  host: string;
  /** Host names the stub's own surface, pages and relay answer besides the built-in ones. */
  allowedHosts: string[];
  port: number;
  trustProxy: boolean;
  emailEnabled: boolean;
  /** Answer as today's community release: every AI route 405 cwai_not_implemened. */
  communityEdition: boolean;
  /** Send CORS headers on the tracker, as an instance does only when it enables them. */
  cors: boolean;
  accountsFile: string | undefined;
  dataDir: string | undefined;
  models: string[];
  loadDelayMs: number;
  visitsLog: string | undefined;
  /** API calls a minute per token before 429 (0 = no limit). */
  rateLimitPerMinute: number;
  /** Visits and emails kept in memory for /__stub/visits and /__stub/emails (each). */
  historySize: number;
  /** Bytes of visits and of emails kept in memory (each, measured as JSON). */
  historyBytes: number;
  /** Serve the demo page at / (and the relay at /contact). */
  demo: boolean;
  /** Answer /__stub/* from any peer, not only from this machine. */
  openControl: boolean;
  quiet: boolean;
}

export const defaultOptions: StubOptions = {
  host: '127.0.0.1',
  allowedHosts: [],
  port: 8787,
  trustProxy: false,
  emailEnabled: true,
  communityEdition: false,
  cors: true,
  accountsFile: undefined,
  dataDir: undefined,
  models: [...availableModels],
  loadDelayMs: 0,
  visitsLog: undefined,
  rateLimitPerMinute: 0,
  historySize: 1000,
  historyBytes: 64 * 1024 * 1024,
  demo: true,
  openControl: false,
  quiet: false,
};

const HOST_NAME = /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const usage = `Usage: sitebeam-stub [options]

  --port N              port to listen on (default 8787; 0 = any free port)
  --host ADDRESS        address to bind (default 127.0.0.1)
  --allowed-host NAME   also answer the stub's pages and /__stub/* for this Host (repeatable;
                        .example.test allows its subdomains too); IP addresses, localhost and
                        the --host name are always allowed
  --accounts FILE       accounts JSON: {"accounts": [{"email", "token", "email_api", "ai_api"}]}
  --data-dir DIR        keep accounts, captured emails and visits in DIR across restarts
                        (files only their owner reads; tokens as SHA-256 digests)
  --trust-proxy         believe X-Real-IP / X-Forwarded-For for the visitor's address
  --no-email            switch email sending off (POST /v1/email answers 405)
  --ce                  answer as the community release 3.16.15: every AI route 405
                        cwai_not_implemened (default: the AI-enabled release 3.15.24)
  --no-cors             no CORS headers on the tracker, as an instance without
                        APP_ENV=local or ENABLE_CORS_ALLOW_ALL
  --models LIST         comma-separated models to list (default: ${availableModels.join(',')})
  --load-delay-ms N     time a model takes to load (default 0: models are ready at start)
  --visits-log FILE     write visit records to FILE instead of stdout
  --rate-limit N        API calls a minute per token before 429 (default: no limit)
  --history N           visits and emails kept in memory (default 1000 each)
  --history-bytes N     bytes of visits and of emails kept in memory (default 67108864 = 64 MiB
                        each); the oldest leave memory first, --data-dir files keep everything
  --no-demo             no demo page, inbox page or relay
  --open-control        answer /__stub/* (accounts, tokens, captured mail, faults) from any
                        address; by default only this machine's (loopback) connections
  --quiet               print only the listening line and errors
  --help                this text`;

function toInteger(flag: string, value: string | undefined, min: number, max: number): number {
  const number = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || number < min || number > max) {
    throw new UsageError(`--${flag} takes a whole number from ${min} to ${max}, not "${value}"`);
  }
  return number;
}

export function parseOptions(argv: string[]): StubOptions | 'help' {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return 'help';

  const models = values.models
    ? values.models
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : defaultOptions.models;
  for (const model of models) {
    if (!(availableModels as readonly string[]).includes(model)) {
      const why = (knownModels as readonly string[]).includes(model)
        ? 'it needs model weights the stub does not ship'
        : 'it is not a model of the API';
      throw new UsageError(
        `--models: "${model}" cannot be served (${why}); choose from ${availableModels.join(', ')}`,
      );
    }
  }

  const allowedHosts = (values['allowed-host'] ?? []).map((name) => name.toLowerCase());
  for (const name of allowedHosts) {
    if (!HOST_NAME.test(name) && isIP(name) === 0) {
      throw new UsageError(
        `--allowed-host takes a host name such as stub.example.test (or .example.test for its subdomains too), not "${name}"`,
      );
    }
  }

  return {
    host: values.host ?? defaultOptions.host,
    allowedHosts,
    port:
      values.port === undefined ? defaultOptions.port : toInteger('port', values.port, 0, 65535),
    trustProxy: values['trust-proxy'] ?? false,
    emailEnabled: !values['no-email'],
    communityEdition: values.ce ?? false,
    cors: !values['no-cors'],
    accountsFile: values.accounts,
    dataDir: values['data-dir'],
    models,
    loadDelayMs:
      values['load-delay-ms'] === undefined
        ? 0
        : toInteger('load-delay-ms', values['load-delay-ms'], 0, 600_000),
    visitsLog: values['visits-log'],
    rateLimitPerMinute:
      values['rate-limit'] === undefined
        ? 0
        : toInteger('rate-limit', values['rate-limit'], 1, 1_000_000),
    historySize:
      values.history === undefined
        ? defaultOptions.historySize
        : toInteger('history', values.history, 1, 1_000_000),
    historyBytes:
      values['history-bytes'] === undefined
        ? defaultOptions.historyBytes
        : toInteger('history-bytes', values['history-bytes'], 1, 2 ** 40),
    demo: !values['no-demo'],
    openControl: values['open-control'] ?? false,
    quiet: values.quiet ?? false,
  };
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      accounts: { type: 'string' },
      'data-dir': { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      'no-email': { type: 'boolean' },
      ce: { type: 'boolean' },
      'no-cors': { type: 'boolean' },
      models: { type: 'string' },
      'load-delay-ms': { type: 'string' },
      'visits-log': { type: 'string' },
      'rate-limit': { type: 'string' },
      history: { type: 'string' },
      'history-bytes': { type: 'string' },
      'no-demo': { type: 'boolean' },
      'open-control': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
}
