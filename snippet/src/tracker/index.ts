// The ESM build: `import { init, track } from 'sitebeam'`. Same core as the tag, no global.
import { configure, fromOptions } from './config.js';
import type { Track, TrackerOptions } from './options.js';
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

let started = false;
const waiting: (() => void)[] = [];

/** Starts the tracker once; later calls are ignored (a re-rendered root component may call it again). */
export const init = (options: InitOptions): void => {
  if (started || typeof window === 'undefined') return;
  started = true;
  configure(fromOptions(options));
  if (options.autoPageViews !== false) watchViews();
  for (const run of waiting.splice(0)) run();
};

/** Sends one page view. Calls made before `init()` wait for it; on a server they resolve to `undefined`. */
export const track: Track = (options) => {
  if (started) return send(options);
  if (typeof window === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => waiting.push(() => resolve(send(options))));
};
