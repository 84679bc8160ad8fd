// `sitebeam/form`: the contact widget for bundlers. Nothing runs on import: call what you need.
export { defineContactForm } from './element.js';
export { enhanceForm } from './enhance.js';
export * from './protocol.js';
export { type TextKey, textFor, texts } from './texts.js';
