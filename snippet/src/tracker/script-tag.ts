// The script-tag build: reads the tag's data-* attributes once and installs `window.sitebeam`.
import { configure } from './config.js';
import type { Config, Consent, Track, TrackOptions } from './options.js';
import { track } from './send.js';
import { consent, watchViews } from './views.js';

/**
 * Before the file loads, a page may queue calls with a stub: `sitebeam.q` holds the options of
 * `track()` calls, `sitebeam.c` the last `consent()` given.
 */
type Sitebeam = { track: Track; consent: Consent; q?: (TrackOptions | undefined)[]; c?: boolean };

try {
  const page = window as Window & { sitebeam?: Sitebeam };
  const data = (document.currentScript as HTMLScriptElement).dataset as Partial<Config>;
  const queued = page.sitebeam;
  // A second copy of the tag (a theme and a plugin both adding it) must not count views twice.
  if (data.api && (!queued || queued.q)) {
    configure(data as Config);
    page.sitebeam = { track, consent };
    // Before the first view: a withdrawal queued on a site that does not ask for consent holds too.
    if (queued && 'c' in queued) consent(queued.c as boolean);
    watchViews();
    // biome-ignore lint/complexity/useOptionalChain: ?. compiles to 10 more bytes for ES2017.
    ((queued && queued.q) || []).map(track);
  }
} catch {}
