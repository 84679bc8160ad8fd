import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

const junit =
  process.env.DRUPAL_BROWSER_JUNIT ??
  `${process.env.SITEBEAM_RESULTS ?? '.tmp/results'}/drupal-browser.xml`;

// Driven by tests/drupal/browser.sh, which installs the site and starts the stub.
export default defineConfig({
  testDir: './browser',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The machine running these may be busy: allow slow page loads.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // One folder per run: the versions of the matrix run side by side.
  outputDir: `../../.tmp/drupal-browser-output/${process.env.DRUPAL_BROWSER_RUN ?? 'default'}`,
  reporter: [['list'], ['junit', { outputFile: junit }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
  },
});
