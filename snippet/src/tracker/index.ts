// The ESM build: `import { init, track } from 'sitebeam'`. Same core as the tag, no global.
import { configure } from './config.js';
import type { Config, Track, TrackerOptions } from './options.js';
import { track as send } from './send.js';
import { watchViews } from './views.js';

export {
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

/** The same switches as the tag's data-* attributes. */
export const toConfig = (options: TrackerOptions): Config => {
  const result: Config = { api: options.api };
  if (options.website) result.website = options.website;
  if (options.referrerPolicy) result.referrerPolicy = options.referrerPolicy;
  if (options.hash) result.hash = '';
  if (options.respectDnt === false) result.respectDnt = 'false';
  if (options.trackAutomation) result.trackAutomation = '';
  if (options.trackLocalhost) result.trackLocalhost = '';
  if (options.exclude?.length) result.exclude = options.exclude.join(',');
  if (options.debug) result.debug = '';
  return result;
};

let started = false;
const waiting: (() => void)[] = [];

/** Starts the tracker once; later calls are ignored (a re-rendered root component may call it again). */
export const init = (options: InitOptions): void => {
  if (started || typeof window === 'undefined') return;
  started = true;
  configure(toConfig(options));
  if (options.autoPageViews !== false) watchViews();
  for (const run of waiting.splice(0)) run();
};

/** Sends one page view. Calls made before `init()` wait for it; on a server they resolve to `undefined`. */
export const track: Track = (options) => {
  if (started) return send(options);
  if (typeof window === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => waiting.push(() => resolve(send(options))));
};
