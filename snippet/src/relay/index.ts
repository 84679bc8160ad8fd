// `sitebeam/relay`: the contact and chat endpoints that keep the API token server-side.

export { CHAT_PATH, createChatHandler, withChat } from './chat.js';
export { type ChatConfig, chatConfigFromEnv, resolveChatConfig } from './chat-config.js';
export {
  configFromEnv,
  type EndpointConfig,
  endpointConfigFromEnv,
  type RelayConfig,
  RelayConfigError,
  resolveConfig,
} from './config.js';
export { type DailyCounter, memoryDailyCounter } from './daily-budget.js';
export { createRelayHandler, type RelayContext, type RelayHandler } from './handler.js';
export { composeEmail, escapeHtml } from './mail.js';
export { toNodeListener } from './node.js';
