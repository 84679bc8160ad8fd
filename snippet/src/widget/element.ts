// What the contact form and the chat widget share as custom elements: when they render, and how
// their style sheet reaches the page.

/** Runs `task` once the document is parsed (at once, in a microtask, when it already is). */
export function whenParsed(task: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', task);
  else Promise.resolve().then(task);
}

/** Defines `tag` once; `render` runs when the element's children (a CMS's hidden inputs, a fallback form) are parsed. */
export function defineWidget(tag: string, render: (host: HTMLElement) => void): void {
  if (customElements.get(tag)) return;
  customElements.define(
    tag,
    class extends HTMLElement {
      connectedCallback() {
        whenParsed(() => render(this));
      }
    },
  );
}

const adopted: string[] = [];

/**
 * Adds `css` to the document once, as a constructed style sheet: a strict Content-Security-Policy
 * (no inline style) allows it. A browser without constructed style sheets shows the unstyled form,
 * which works all the same.
 */
export function adoptStyle(css: string): void {
  if (!adopted.includes(css)) {
    adopted.push(css);
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    } catch {}
  }
}
