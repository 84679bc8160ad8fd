export {
  hasLineBreak,
  isBareEmailAddress,
  isEmailAddress,
  type Mailbox,
  parseMailbox,
  specialUseDomainOf,
} from './address.js';
export { type AnswerName, answerProblem } from './answer-check.js';
export { baseUrlProblem, connectOrigin, isLoopbackHost } from './base-url.js';
export { readCappedBody } from './capped-body.js';
export {
  type ClientOptions,
  createClient,
  type RawAnswer,
  type SitebeamClient,
} from './client.js';
export * from './contract.js';
export { SitebeamApiError } from './errors.js';
export { visibleControls, visibleJson } from './visible-controls.js';
