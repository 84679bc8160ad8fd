// The script-tag build of the tracker: loading it (a <script> tag, or an import for its side
// effect) installs `window.sitebeam`. Hand-written: the bundle is an IIFE that exports nothing.
import type { Consent, Track, TrackOptions } from '../dist/tracker/index.js';

declare global {
  interface Window {
    /**
     * Before the file loads, a page may queue calls in `q` and its last consent in `c`; afterwards
     * `track` sends a view and `consent` gives or withdraws consent (see `data-consent`).
     */
    sitebeam?: { track: Track; consent: Consent; q?: (TrackOptions | undefined)[]; c?: boolean };
  }
}
