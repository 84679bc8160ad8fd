// Sends one view: JSON by fetch, or the hidden pixel where fetch is missing. Never both: a fetch
// that fails may still have reached the server (without CORS the browser hides its answer), so a
// pixel after it could count the view twice; the promise then resolves without a record.
import { config } from './config.js';
import { TRACK_EVENT, type Track, type TrackerRecord } from './options.js';
import { keptQuery, pageUrl } from './page-url.js';
import { skipReason } from './skip.js';

/** The prefix of `paths.trackerJson`/`trackerImg` in the contract, spelled out for bytes (a test checks they agree). */
export const TRACKER_PATH = '/v1/tracker/';

// Nothing is awaited before fetch(): the request leaves in the same task as the navigation that
// caused it, while that route's URL is still the document's (its `Referer`).
export const track: Track = async (options = {}) => {
  try {
    const reason = skipReason();
    const referrerPolicy = (config.referrerPolicy ||
      'no-referrer-when-downgrade') as ReferrerPolicy;
    const website = options.website || config.website || location.hostname;
    // The instance decodes the path before routing: "/", "." or ".." would reach another route.
    if (!reason && !/\/|^\.\.?$/.test(website)) {
      const url = (kind: string) =>
        config.api.replace(/\/$/, '') + TRACKER_PATH + kind + '/' + encodeURIComponent(website);
      if (!window.fetch) {
        // An image's Referer cannot be chosen: the origin alone, unless the site keeps every
        // parameter (its pattern then matches any name, `*` included). '' is `anonymous`: no cookies.
        const pixel = new Image();
        pixel.crossOrigin = '';
        pixel.referrerPolicy = keptQuery().test('*') ? referrerPolicy : 'origin';
        pixel.src = url('img');
        return;
      }
      try {
        const response = await fetch(url('json'), {
          keepalive: true,
          credentials: 'omit',
          referrer: pageUrl(),
          referrerPolicy,
        });
        if (response.ok) {
          const record: TrackerRecord = await response.json();
          document.dispatchEvent(new CustomEvent(TRACK_EVENT, { detail: record }));
          return record;
        }
      } catch {}
    }
    // One console call for both outcomes: the tag's bytes.
    if ('debug' in config)
      console.log(reason ? 'sitebeam skip' : 'sitebeam no record', reason || website);
  } catch {}
};
