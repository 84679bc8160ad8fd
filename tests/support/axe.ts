// axe-core run inside the page under test: each violation with the elements it names.
import type { Page } from '@playwright/test';
import axe, { type ContextSpec } from 'axe-core';

/** The violations in the whole page, or in the part `context` names (axe's include/exclude selectors). */
export async function axeViolations(page: Page, context?: ContextSpec) {
  await page.addScriptTag({ content: axe.source });
  // Sent as JSON text: Playwright's typing of an argument as rich as ContextSpec never ends.
  const results = await page.evaluate(
    (within: string) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        (JSON.parse(within) as ContextSpec | null) ?? document,
      ),
    JSON.stringify(context ?? null),
  );
  return results.violations.map((violation) => ({
    id: violation.id,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
