// `sitebeam/chat`: the chat widget for bundlers. Nothing runs on import: call defineChat().
export { defineChat } from './element.js';
export * from './protocol.js';
export { type ChatTextKey, chatText, chatTexts } from './texts.js';
