// `sitebeam/relay`: the contact endpoint that keeps the API token server-side.
export {
  configFromEnv,
  type RelayConfig,
  RelayConfigError,
  resolveConfig,
} from './config.js';
export { createRelayHandler, type RelayContext, type RelayHandler } from './handler.js';
export { composeEmail, escapeHtml } from './mail.js';
export { toNodeListener } from './node.js';
