// The script-tag build: reads the tag's data-* attributes once and installs `window.sitebeam`.
import { configure } from './config.js';
import type { Config, Track, TrackOptions } from './options.js';
import { track } from './send.js';
import { watchViews } from './views.js';

/** Before the file loads, a page may queue calls with a stub: `sitebeam.q` holds their options. */
type Sitebeam = { track: Track; q?: (TrackOptions | undefined)[] };

try {
  const page = window as Window & { sitebeam?: Sitebeam };
  const config = (document.currentScript as HTMLScriptElement).dataset as Partial<Config>;
  const queued = page.sitebeam;
  // A second copy of the tag (a theme and a plugin both adding it) must not count views twice.
  if (config.api && (!queued || queued.q)) {
    configure(config as Config);
    page.sitebeam = { track };
    watchViews();
    // biome-ignore lint/complexity/useOptionalChain: ?. compiles to 10 more bytes for ES2017.
    ((queued && queued.q) || []).map(track);
  }
} catch {}
