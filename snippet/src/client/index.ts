export {
  hasLineBreak,
  isBareEmailAddress,
  isEmailAddress,
  type Mailbox,
  parseMailbox,
} from './address.js';
export { baseUrlProblem, connectOrigin, isLoopbackHost } from './base-url.js';
export { type ClientOptions, createClient, type SitebeamClient } from './client.js';
export * from './contract.js';
export { SitebeamApiError } from './errors.js';
