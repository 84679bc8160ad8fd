import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../support/chromium.ts';

const resultsDir = process.env.SITEBEAM_RESULTS ?? '.tmp/results';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list'], ['junit', { outputFile: `${resultsDir}/e2e.xml` }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
  },
});
