import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

const resultsDir = process.env.SITEBEAM_RESULTS ?? '.tmp/results';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Two files at a time, each with its own stub, relay and site on ports of their own; a file's tests
  // stay in order. 132 s with one worker, 92 s with two, on 2 cores.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Two files at a time on a machine that may be busy: Playwright's 5 s for an expectation is not.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['junit', { outputFile: `${resultsDir}/e2e.xml` }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
  },
});
