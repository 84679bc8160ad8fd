// Automatic page views, from the browser's own navigation events: no timer ever wakes the page.
import { consented, setConsent } from './config.js';
import type { Consent } from './options.js';
import { track } from './send.js';
import { currentPage } from './skip.js';

let last: string | undefined;

/**
 * Counts the page unless it is the one counted last. Runs right after the URL changed, so the
 * request leaves while that URL is the document's: its `Referer` names the route just shown.
 */
const view = () => {
  const page = currentPage();
  // A prerendered page is not a view until it is shown; a page shown before consent is counted
  // when it comes.
  if (
    !(document as Document & { prerendering?: boolean }).prerendering &&
    consented &&
    page !== last
  ) {
    last = page;
    track();
  }
};

/** The consent of a page whose views are counted automatically. */
export const consent: Consent = (given) => {
  setConsent(given);
  view();
};

/** Wraps in place, so a framework wrapping the same method before or after keeps working. */
const afterEach = (name: 'pushState' | 'replaceState') => {
  const original = history[name];
  history[name] = function (this: History) {
    // biome-ignore lint/complexity/noArguments: rest parameters compile to a copying loop.
    const result = original.apply(this, arguments as never);
    view();
    return result;
  };
};

export const watchViews = (): void => {
  // The first view before anything else: wrapping and listening cost ~0.7 ms of first-use
  // DOM bindings in Chromium, which need not stand before the request.
  view();
  afterEach('pushState');
  afterEach('replaceState');
  // Back/forward, and hash changes: browsers fire popstate for a fragment navigation too.
  addEventListener('popstate', view);
  addEventListener('pageshow', (event) => {
    // Restored from the back/forward cache: a new view of the same page.
    if (event.persisted) {
      last = '';
      view();
    }
  });
  document.addEventListener('prerenderingchange', view);
};
