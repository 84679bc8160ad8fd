// Budgets in bytes of the script-tag bundles. The build fails over `gzipBudgets` (gzip -9);
// `npm run size` shows them and fails over `ceilings` too, and when the tag's brotli answer no
// longer fits in the first TCP segment.
export const gzipBudgets = {
  // A ceiling against growth, not the target below: 1048 until the tag sent a view that the
  // page's Content-Security-Policy keeps from fetch by the pixel (+183 B: the pixel, the policy's
  // event, its checks and the debug messages of each way); 1100 until the tag refused names the
  // path cannot carry and said when no record came back (+40 B); 1140 until its own bytes were
  // cut without dropping anything (-22 B); 1118 until the first pixel fallback went (-77 B: it
  // only ran without fetch). What each feature costs is in docs/benchmarks.md ("The tag's size and start-up").
  'sitebeam.min.js': 1240,
  // 3072 until the address rule refused the service's special-use domains (+80 B); 3200 until the
  // optional consent checkbox (its element, link and FR/EN texts: +300 B).
  'sitebeam-form.min.js': 3500,
  'sitebeam-chat.min.js': 4096,
};

/**
 * Issue #38's ceilings for the tag, with every feature and the pixel fallback: `npm run size` fails
 * over either. Tighten them whenever a feature gets cheaper; never raise them without saying why in
 * docs/benchmarks.md ("The tag's size and start-up").
 */
export const ceilings = {
  'sitebeam.min.js': { gzip: 1240, brotli: 1080 },
};

/** The first TCP segment of an IPv4 Ethernet path (1448 B with TCP timestamps). */
export const firstSegmentBytes = 1460;
