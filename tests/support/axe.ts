// axe-core run inside the page under test: each violation with the elements it names.
import type { Page } from '@playwright/test';
import axe from 'axe-core';

export async function axeViolations(page: Page) {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document),
  );
  return results.violations.map((violation) => ({
    id: violation.id,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
