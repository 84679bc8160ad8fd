// axe-core run inside the page under test: each violation with the elements it names.
import type { Page } from '@playwright/test';
import axe, { type ContextSpec } from 'axe-core';

/** The violations in the whole page, or in the part `context` names (axe's include/exclude selectors). */
export async function axeViolations(page: Page, context?: ContextSpec) {
  await page.addScriptTag({ content: axe.source });
  const results = await page.evaluate(
    (within) => (window as unknown as { axe: typeof axe }).axe.run(within ?? document),
    context,
  );
  return results.violations.map((violation) => ({
    id: violation.id,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
