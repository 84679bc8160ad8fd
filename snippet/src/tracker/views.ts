// Automatic page views: the first one, single-page navigation, back/forward cache, prerendering.
import { track } from './send.js';
import { currentPage } from './skip.js';

/** How often the page's path is compared with the last one counted. */
export const POLL_MS = 300;

let last = '';

const view = () => {
  const page = currentPage();
  // A prerendered page is not a view until it is shown.
  if (!(document as Document & { prerendering?: boolean }).prerendering && page !== last) {
    last = page;
    track();
  }
};

/**
 * Polling the path, rather than wrapping pushState/replaceState and listening to popstate, sees
 * every same-document navigation (those three, hash changes, prerender activation) for about 10
 * gzip bytes instead of 60, and leaves the page's own objects untouched.
 */
export const watchViews = (): void => {
  setInterval(view, POLL_MS);
  // A page restored from the back/forward cache is a new view of the same path.
  addEventListener('pagehide', () => {
    last = '';
  });
  view();
};
