// Sends one view as JSON by fetch. Every browser that runs the tag's ES2017 code has fetch (Safari
// 10.1, Chrome 55, Firefox 52, Edge 15): the hidden pixel is for pages without JavaScript
// (`<noscript>`). Nothing follows a failed fetch: it may still have reached the server (without
// CORS the browser hides its answer), so the promise resolves without a record.
import { config } from './config.js';
import { TRACK_EVENT, type Track, type TrackerRecord } from './options.js';
import { pageUrl } from './page-url.js';
import { skipReason } from './skip.js';

/** `paths.trackerJson` of the contract without its website, spelled out for bytes (a test checks they agree). */
export const TRACKER_JSON_PATH = '/v1/tracker/json/';

// Nothing is awaited before fetch(): the request leaves in the same task as the navigation that
// caused it, while that route's URL is still the document's (its `Referer`).
export const track: Track = async (options = {}) => {
  try {
    const reason = skipReason();
    const website = options.website || config.website || location.hostname;
    // The instance decodes the path before routing: "/", "." or ".." would reach another route.
    if (!reason && !/\/|^\.\.?$/.test(website))
      try {
        const response = await fetch(
          config.api.replace(/\/$/, '') + TRACKER_JSON_PATH + encodeURIComponent(website),
          {
            keepalive: true,
            credentials: 'omit',
            referrer: pageUrl(),
            referrerPolicy: (config.referrerPolicy ||
              'no-referrer-when-downgrade') as ReferrerPolicy,
          },
        );
        if (response.ok) {
          const record: TrackerRecord = await response.json();
          document.dispatchEvent(new CustomEvent(TRACK_EVENT, { detail: record }));
          return record;
        }
      } catch {}
    // One console call for both outcomes: the tag's bytes.
    if ('debug' in config)
      console.log(reason ? 'sitebeam skip' : 'sitebeam no record', reason || website);
  } catch {}
};
