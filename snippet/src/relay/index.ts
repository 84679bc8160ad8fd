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
export { createMemoryCounter, type MemoryCounter, type WindowCounter } from './rate-limit.js';
