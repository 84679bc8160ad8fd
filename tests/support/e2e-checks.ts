// Checks the Chromium specs of tests/e2e make around their tests.
import { expect, type Page, test } from '@playwright/test';
import { faultsLeft, type RunningStub } from './stub-server.ts';

/** After each test of the spec: no fault the test injected is left on `stub()`. */
export function expectNoFaultLeftAfterEach(stub: () => RunningStub) {
  test.afterEach(async () => {
    expect(await faultsLeft(stub()), 'faults the test left on the stub').toEqual([]);
  });
}

/** The messages of the dialogs (alert, confirm) `page` opens from now on, each dismissed. */
export function dialogsOf(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

/** Every answer `page` receives from now on: its URL, headers and body, one entry each. */
export function answersOf(page: Page): string[] {
  const answers: string[] = [];
  page.on('response', async (response) => {
    const headers = JSON.stringify(await response.allHeaders());
    const body = await response.text().catch(() => '');
    answers.push(`${response.url()}\n${headers}\n${body}`);
  });
  return answers;
}
