import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

const resultsDir = process.env.SITEBEAM_RESULTS ?? '.tmp/results';
const version = process.env.SITEBEAM_WP_VERSION ?? 'unknown';

// Run by tests/wordpress/run.sh, which starts WordPress and the stub and exports their URLs.
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The machine running these may be busy (a fresh CI machine, or Drupal's suites beside them).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['junit', { outputFile: `${resultsDir}/wordpress-${version}-e2e.xml` }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    baseURL: process.env.SITEBEAM_WP_URL,
  },
});
