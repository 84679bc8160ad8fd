// axe-core run inside the page under test: each violation with the elements it names.
import type { Page } from '@playwright/test';
import axe from 'axe-core';

/** Axe's findings on the page, or only on the part `selector` names. */
export async function axeViolations(page: Page, selector?: string) {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(
    (part) =>
      (window as unknown as { axe: typeof axe }).axe.run(part ? { include: [[part]] } : document),
    selector,
  );
  return results.violations.map((violation) => ({
    id: violation.id,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
