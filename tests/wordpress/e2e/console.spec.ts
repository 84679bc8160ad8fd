// The console watch the other specs rely on lets WordPress's own known messages through only when
// core's script writes them: the same text from any other script, ours first, is still a problem.
import { expect, test } from '@playwright/test';
import { coreConsoleMessages, site, watchConsole } from './site.ts';

test("core's known console messages pass only from core's own script", async ({ page }) => {
  const problems = watchConsole(page);
  const ours = `${site.url}/wp-content/plugins/sitebeam/assets/js/console-probe.js`;
  const expected: string[] = [];
  await page.goto('/');
  for (const known of coreConsoleMessages) {
    // Written as core writes it: the text, then the element it is about.
    const [text] = known.text.split(' JSHandle@node');
    const warn = `console.warn(${JSON.stringify(text)}, document.createElement('style'));`;
    for (const url of [ours, `${site.url}${known.script}`]) {
      await page.route(url, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: warn }),
      );
      await page.addScriptTag({ url });
      await page.unroute(url);
    }
    expected.push(`warning: ${known.text} (${ours})`);
  }
  // Console messages arrive in order: once this one is in, every message before it is.
  await page.evaluate(() => console.error('end of the probe'));
  const isEnd = (line: string) => line.startsWith('error: end of the probe');
  await expect.poll(() => problems().some(isEnd)).toBe(true);
  expect(problems().filter((line) => !isEnd(line))).toEqual(expected);
});
