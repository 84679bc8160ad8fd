// The script-tag build of the chat: loading it defines <sitebeam-chat>. Hand-written: the bundle
// is an IIFE that exports nothing.

declare global {
  interface HTMLElementTagNameMap {
    'sitebeam-chat': HTMLElement;
  }
}

export {};
