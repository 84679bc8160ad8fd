// The contact endpoint protocol (contract/contact-protocol.md) on the TypeScript side: the widget
// and the relay import its names, limits and codes from the module generated from the contract.
export {
  CONTACT_ALLOWED_METHODS,
  type ContactErrorCode,
  type ContactFailure,
  type ContactSuccess,
  type ContactTicket,
  contactDefaults,
  contactErrorCodes,
  contactErrorStatus,
  contactFields,
  contactLimits,
  contactResponseFields,
  contactTicket,
  emailAddressPattern,
  multiLineForbiddenPattern,
  SENT_QUERY_PARAM,
  singleLineForbiddenPattern,
} from '../client/contract.generated.js';
