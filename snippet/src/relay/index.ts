// `sitebeam/relay`: the contact and chat endpoints that keep the API token server-side.

export { CHAT_PATH, createChatHandler, withChat } from './chat.js';
export { type ChatConfig, chatConfigFromEnv, resolveChatConfig } from './chat-config.js';
export {
  configFromEnv,
  type EndpointConfig,
  endpointConfigFromEnv,
  type RelayConfig,
  resolveConfig,
} from './config.js';
export type { ConsentConfig } from './consent.js';
export { type FallbackOptions, withMemoryFallback } from './counter-fallback.js';
export {
  type DurableObjectNamespaceLike,
  durableObjectCounter,
  SitebeamRateLimit,
} from './durable-object-counter.js';
export { RelayConfigError } from './env.js';
export { createRelayHandler, type RelayContext, type RelayHandler } from './handler.js';
export { escapeHtml } from './html.js';
export { composeEmail } from './mail.js';
export { toNodeListener } from './node.js';
export { OUTBOX_ADMIN_PATH } from './outbox/admin.js';
export { type DenoKvLike, denoKvOutbox } from './outbox/deno-kv-outbox.js';
export {
  durableObjectOutbox,
  type OutboxNamespaceLike,
  SitebeamOutbox,
} from './outbox/durable-object-outbox.js';
export type {
  Outbox,
  OutboxChange,
  OutboxEntry,
  OutboxStore,
} from './outbox/outbox.js';
export type { OutboxSettings } from './outbox/settings.js';
export { createMemoryCounter, type MemoryCounter, type WindowCounter } from './rate-limit.js';
