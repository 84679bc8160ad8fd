// gzip -9 budgets in bytes of the script-tag bundles: the build fails over them, `npm run size` shows them.
export const gzipBudgets = {
  'sitebeam.min.js': 1100,
  'sitebeam-form.min.js': 3072,
  'sitebeam-chat.min.js': 4096,
};
