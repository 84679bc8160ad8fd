export {
  hasLineBreak,
  isBareEmailAddress,
  isEmailAddress,
  type Mailbox,
  parseMailbox,
  specialUseDomainOf,
} from './address.js';
export { baseUrlProblem, isLoopbackHost } from './base-url.js';
export { type ClientOptions, createClient, type SitebeamClient } from './client.js';
export * from './contract.js';
export { SitebeamApiError } from './errors.js';
