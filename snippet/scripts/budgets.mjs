// gzip -9 budgets in bytes of the script-tag bundles: the build fails over them, `npm run size` shows them.
export const gzipBudgets = {
  // 1100 until the tag refused names the path cannot carry and said when no record came back (+40 B);
  // 1140 until its own bytes were cut without dropping anything (-22 B); 1118 until the pixel
  // fallback went (-77 B: no browser that runs ES2017 lacks fetch). Issue #21's 950 B would take
  // dropping features: what each costs (gzip B, the tag built without it alone) is in the README's
  // "Size and speed".
  'sitebeam.min.js': 1048,
  // 3072 until the address rule refused the service's special-use domains (+80 B); 3200 until the
  // optional consent checkbox (its element, link and FR/EN texts: +300 B).
  'sitebeam-form.min.js': 3500,
  'sitebeam-chat.min.js': 4096,
};
