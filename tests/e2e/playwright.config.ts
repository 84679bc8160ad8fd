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
  timeout: 30_000,
  reporter: [['list'], ['junit', { outputFile: `${resultsDir}/e2e.xml` }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
  },
});
