// The chat endpoint protocol (contract/chat-protocol.md) on the TypeScript side: the widget and
// the relay import its names, limits and codes from the module generated from the contract.
export {
  CHAT_ALLOWED_METHODS,
  type ChatAnswer,
  type ChatErrorCode,
  type ChatFailure,
  type ChatModels,
  chatDefaults,
  chatErrorCodes,
  chatErrorStatus,
  chatFields,
  chatLimits,
  chatResponseFields,
  chatWidget,
  unscoredModels,
} from '../client/contract.generated.js';
