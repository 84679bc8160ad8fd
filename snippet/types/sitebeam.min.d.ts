// The script-tag build of the tracker: loading it (a <script> tag, or an import for its side
// effect) installs `window.sitebeam`. Hand-written: the bundle is an IIFE that exports nothing.
import type { Track, TrackOptions } from '../dist/tracker/index.js';

declare global {
  interface Window {
    /** Before the file loads, a page may queue calls in `q`; afterwards `track` sends a view. */
    sitebeam?: { track: Track; q?: (TrackOptions | undefined)[] };
  }
}
