// Browser benchmarks: run on demand (`npx playwright test -c tests/e2e/bench`), never part of `npm test`.
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../../support/chromium.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '*.bench.ts',
  workers: 1,
  retries: 0,
  timeout: 300_000,
  reporter: 'list',
  use: { browserName: 'chromium', launchOptions: chromiumLaunchOptions },
});
