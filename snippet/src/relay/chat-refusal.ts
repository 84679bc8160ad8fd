// What the chat endpoint says when it does not answer: built by chat.ts, shown by chat-page.ts.
import type { ChatErrorCode } from '../chat/protocol.js';

export interface ChatRefusal {
  code: ChatErrorCode;
  /** Text a visitor may read. */
  error: string;
  field?: string;
  retryAfter?: number;
}
