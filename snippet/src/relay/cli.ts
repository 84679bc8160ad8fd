#!/usr/bin/env node
/// <reference types="node" />
// `sitebeam-relay [--port 8788] [--host 127.0.0.1]`: the relay on Node, configured by SITEBEAM_* variables;
// `sitebeam-relay outbox …`: the owner's view of its outbox.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { CHAT_PATH, createChatHandler, withChat } from './chat.js';
import { chatConfigFromEnv, defaultChatDailyLimit } from './chat-config.js';
import { configFromEnv, contactEnvNames, endpointConfigFromEnv } from './config.js';
import { RelayConfigError } from './env.js';
import { createRelayHandler, type RelayHandler } from './handler.js';
import { toNodeListener } from './node.js';
import { outboxCommand } from './outbox/command.js';
import type { Outbox, OutboxStore } from './outbox/outbox.js';
import { outboxEnvNames } from './outbox/settings.js';
import { type RateLimitStore, rateLimitStoreFromEnv } from './rate-limit-store.js';
import { importNeedingRedis, REDIS_URL_ENV, redisFromEnv } from './redis-env.js';
import {
  type SocketLimits,
  serverOptions,
  socketLimitEnvNames,
  socketLimitsFromEnv,
} from './socket-limits.js';

const usage =
  'Usage: sitebeam-relay [--port 8788] [--host 127.0.0.1]\n       sitebeam-relay outbox list|retry ID|delete ID [--json] [--url URL]   (--help for more)';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.PORT ?? '8788' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      `${usage}\nConfiguration: SITEBEAM_API_URL, SITEBEAM_API_TOKEN, SITEBEAM_ALLOWED_ORIGINS, SITEBEAM_PUBLIC_URL (the relay's own https origin; unset: its own pages are allowed only on localhost or an IP address).\nContact form on every path but ${CHAT_PATH}: ${contactEnvNames.join(', ')} (none of them: no contact form); SITEBEAM_CONTACT_CONSENT (a consent checkbox's label: posts without the ticked box are refused) and SITEBEAM_CONTACT_CONSENT_URL (its privacy policy).\nChat on ${CHAT_PATH}: SITEBEAM_CHAT_MODELS (the models visitors may use; unset: chat off), SITEBEAM_CHAT_SETTINGS (JSON prompt settings), SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE, SITEBEAM_CHAT_DAILY_LIMIT (messages a UTC day for the whole relay; default ${defaultChatDailyLimit}, 0: no cap), SITEBEAM_CHAT_CONSENT and SITEBEAM_CHAT_CONSENT_URL (the chat's consent checkbox).\nSockets: ${Object.values(socketLimitEnvNames).join(', ')} (seconds to send the headers, default 10, and the whole request, default 30; connections open at once, default 512).\nRate limits shared by several instances: ${REDIS_URL_ENV} (redis:// or rediss://; unset: counted in memory, per process).\nOutbox (with ${REDIS_URL_ENV}: a message the instance cannot take now is kept in Redis and delivered later, 202 queued; unset: the visitor is asked to try again): ${Object.values(outboxEnvNames).join(', ')} (default 1000 messages, 16 MiB, given up after 72 hours, given-up ones kept 7 days, first retry after 30 s, an unfinished try taken over after 60 s; 0 messages: no outbox), SITEBEAM_ADMIN_SECRET (opens /admin/outbox to sitebeam-relay outbox --url).`,
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    fail(`--port must be a port number, not "${values.port}".\n${usage}`);
  }

  let handler: RelayHandler;
  let serves: string;
  let ownPages: string;
  let limits: SocketLimits;
  let store: RateLimitStore | undefined;
  let outbox: Outbox | undefined;
  let outboxLine = '';
  try {
    limits = socketLimitsFromEnv(process.env);
    store = await rateLimitStoreFromEnv(process.env, (line) => console.error(line));
    const rateLimitCounter = store?.counter;
    const chat = chatConfigFromEnv(process.env);
    const chatOnly =
      chat.models.length > 0 && contactEnvNames.every((name) => !process.env[name]?.trim());
    const redisOutbox = chatOnly ? undefined : await redisOutboxFromEnv();
    const keptOutbox: OutboxStore | undefined = redisOutbox
      ? (delivery) => {
          outbox = redisOutbox(delivery);
          return outbox;
        }
      : undefined;
    const contact = chatOnly
      ? undefined
      : {
          ...configFromEnv(process.env),
          rateLimitCounter,
          ...(keptOutbox ? { outbox: keptOutbox } : {}),
        };
    const endpoint = contact ?? { ...endpointConfigFromEnv(process.env), rateLimitCounter };
    handler = withChat(
      contact ? createRelayHandler(contact) : notServed,
      createChatHandler(endpoint, chat),
    );
    serves = chatOnly
      ? `the chat on ${CHAT_PATH} (no contact form: ${contactEnvNames.join(', ')} are unset)`
      : `the chat on ${CHAT_PATH}${chat.models.length ? '' : ' (off: SITEBEAM_CHAT_MODELS is unset)'}, the contact form on every other path`;
    outboxLine = chatOnly
      ? ''
      : outbox
        ? `\nA message the instance cannot take now waits in the outbox, ${outbox.description}, shared by every instance using it (sitebeam-relay outbox list).`
        : `\nNo outbox (${redisOutbox ? `${outboxEnvNames.maxMessages} or ${outboxEnvNames.maxMebibytes} is 0` : `${REDIS_URL_ENV} unset`}): a message the instance cannot take now is refused with "try again".`;
    ownPages = endpoint.publicUrl
      ? `Its own pages (confirmation, no-JavaScript chat) are on ${new URL(endpoint.publicUrl).origin}.`
      : 'SITEBEAM_PUBLIC_URL is unset: its own pages (confirmation, no-JavaScript chat) work only when it is reached at localhost or an IP address.';
  } catch (error) {
    if (error instanceof RelayConfigError) fail(`sitebeam-relay: not started: ${error.message}.`);
    throw error;
  }

  const server = createServer(serverOptions(limits), toNodeListener(handler));
  server.maxConnections = limits.maxConnections;
  server.on('error', (error) => fail(`sitebeam-relay: cannot listen: ${error.message}`));
  server.listen(port, values.host, () => {
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    console.error(
      `Sitebeam relay listening on http://${host}:${address.port}\nIt serves ${serves}.\n${ownPages}\nIts rate limits count ${store ? `in ${store.description}, shared by every instance using it` : `in memory, for this process alone (${REDIS_URL_ENV} unset)`}.${outboxLine}`,
    );
  });
  const stop = () =>
    server.close(async () => {
      // A try under way ends first: its outcome is written, and no other relay waits a minute for it.
      await Promise.all([store?.close(), outbox?.close()]);
      process.exit(0);
    });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** The Redis outbox when SITEBEAM_REDIS_URL is set (loaded only then: it needs `redis`). */
async function redisOutboxFromEnv(): Promise<OutboxStore | undefined> {
  const redis = redisFromEnv(process.env);
  if (!redis) return undefined;
  const { redisOutbox } = await importNeedingRedis(() => import('./outbox/redis-outbox.js'));
  return redisOutbox({ url: redis.url, name: redis.description });
}

async function notServed(): Promise<Response> {
  return new Response('Not found: this relay serves only the chat.\n', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (process.argv[2] === 'outbox') process.exitCode = await outboxCommand(process.argv.slice(3));
else await main();
