// The ESM build: `import { init, track } from 'sitebeam'`. Same core as the tag, no global.
import { configure, fromOptions, setConsent } from './config.js';
import type { Consent, Track, TrackerOptions } from './options.js';
import { track as send } from './send.js';
import { consent as consentAndView, watchViews } from './views.js';

export {
  type Consent,
  TRACK_EVENT,
  type Track,
  type TrackerOptions,
  type TrackerRecord,
  type TrackOptions,
} from './options.js';

export interface InitOptions extends TrackerOptions {
  /** Count the first view and every later change of path by itself. Default: true; with false, call `track()`. */
  autoPageViews?: boolean;
}

let started = false;
let autoPageViews = true;
let givenBeforeInit: boolean | undefined;
const waiting: (() => void)[] = [];

/** Starts the tracker once; later calls are ignored (a re-rendered root component may call it again). */
export const init = (options: InitOptions): void => {
  if (started || typeof window === 'undefined') return;
  started = true;
  autoPageViews = options.autoPageViews !== false;
  configure(fromOptions(options));
  if (givenBeforeInit !== undefined) setConsent(givenBeforeInit);
  if (autoPageViews) watchViews();
  for (const run of waiting.splice(0)) run();
};

/**
 * Gives or withdraws consent (with `consent: 'required'`, nothing is sent before a "yes"). A "yes"
 * counts the page shown, once, unless `autoPageViews` is false. Before `init()` the last call is kept.
 */
export const consent: Consent = (given) => {
  if (!started) givenBeforeInit = given;
  else if (autoPageViews) consentAndView(given);
  else setConsent(given);
};

/** Sends one page view. Calls made before `init()` wait for it; on a server they resolve to `undefined`. */
export const track: Track = (options) => {
  if (started) return send(options);
  if (typeof window === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => waiting.push(() => resolve(send(options))));
};
