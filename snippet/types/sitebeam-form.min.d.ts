// The script-tag build of the contact form: loading it enhances every `form[data-sitebeam-form]`
// and defines <sitebeam-contact-form>. Hand-written: the bundle is an IIFE that exports nothing.

declare global {
  interface HTMLElementTagNameMap {
    'sitebeam-contact-form': HTMLElement;
  }
}

export {};
