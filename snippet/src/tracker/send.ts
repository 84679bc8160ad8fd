// Sends one view: JSON by fetch, or the hidden pixel where the page's Content-Security-Policy
// blocks fetch to the instance but lets images reach it (`connect-src 'self'` beside a broad
// `img-src`: a policy a CMS site owner may not be able to change). Never both: a fetch that fails
// may still have reached the server (without CORS the browser hides its answer), so only the
// policy's own `securitypolicyviolation` event, which proves the request never left, sends that
// view by the pixel; every later view of the page then goes straight to it.
import { config } from './config.js';
import { TRACK_EVENT, type Track, type TrackerRecord } from './options.js';
import { pageUrl } from './page-url.js';
import { skipReason } from './skip.js';

/** `paths.trackerJson` of the contract without its website, spelled out for bytes (a test checks they agree). */
export const TRACKER_JSON_PATH = '/v1/tracker/json/';
/** `paths.trackerImg`, the same way. */
export const TRACKER_IMG_PATH = '/v1/tracker/img/';

/** Views sent by the pixel: from the first, which the policy's event sent, every view goes by the
 * pixel (the policy would block fetch again). Numbers the pixels' URLs, because a document reuses
 * an image it already has for the same URL (even `no-store`) without asking again. */
let pixels = 0;

const referrerPolicy = () =>
  (config.referrerPolicy || 'no-referrer-when-downgrade') as ReferrerPolicy;

/** The `data-debug` message: which way a view went, or why not. */
const say = (way: string, what: string) => {
  // biome-ignore lint/style/useTemplate: a template literal compiles to 4 more bytes gzip here.
  if ('debug' in config) console.log('sitebeam ' + way, what);
};

/**
 * Sends the view of the JSON `url` by the pixel. An image's Referer cannot be chosen: the origin
 * alone, unless the site keeps every parameter. '' is `anonymous`: no cookies. An image the policy
 * blocks too fails quietly: nothing sent, nothing thrown.
 */
const pixel = (url: string) => {
  const image = new Image();
  image.crossOrigin = '';
  image.referrerPolicy = config.keepQuery === '*' ? referrerPolicy() : 'origin';
  // biome-ignore lint/style/useTemplate: the same, 4 bytes.
  image.src = url.replace(TRACKER_JSON_PATH, TRACKER_IMG_PATH) + '?' + pixels++;
  say('pixel', image.src);
};

/** The policy's report of a JSON request it blocked (queued after fetch rejected, with the full
 * URL): that view goes by the pixel. A report-only policy blocked nothing: its reports are not. */
const blocked = (event: SecurityPolicyViolationEvent) => {
  if (
    event.disposition === 'enforce' &&
    !event.blockedURI.indexOf(config.api.replace(/\/$/, '') + TRACKER_JSON_PATH)
  )
    pixel(event.blockedURI);
};

// Nothing is awaited before fetch(): the request leaves in the same task as the navigation that
// caused it, while that route's URL is still the document's (its `Referer`).
export const track: Track = async (options = {}) => {
  try {
    const reason = skipReason();
    const website = options.website || config.website || location.hostname;
    // The instance decodes the path before routing: "/", "." or ".." would reach another route.
    if (!reason && !/\/|^\.\.?$/.test(website))
      try {
        const url = config.api.replace(/\/$/, '') + TRACKER_JSON_PATH + encodeURIComponent(website);
        if (pixels) return pixel(url) as undefined;
        const response = await fetch(url, {
          keepalive: true,
          credentials: 'omit',
          referrer: pageUrl(),
          referrerPolicy: referrerPolicy(),
        });
        if (response.ok) {
          const record: TrackerRecord = await response.json();
          document.dispatchEvent(new CustomEvent(TRACK_EVENT, { detail: record }));
          say('json', url);
          return record;
        }
      } catch {
        // The policy's event is a task queued after this rejection. One listener per page: the
        // same function is added once.
        document.addEventListener('securitypolicyviolation', blocked);
      }
    say(reason ? 'skip' : 'no record', reason || website);
  } catch {}
};
