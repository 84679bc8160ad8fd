// What a site owner and a visitor see when the instance answers as the real service does (cwcloud-api 3.16.15 and
// 3.15.24, their exact bodies), faked at the plugin's HTTP layer by the test site (sitebeam-test/v1/upstream).
import { expect, test } from '@playwright/test';
import { logIn, site, startAndEndWithTheInstalledSite, stub, testSite } from './site.ts';

startAndEndWithTheInstalledSite();

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const answer = (status: number, body: unknown): Answer => ({ status, headers: {}, body });
const missingFields = answer(422, {
  detail: [
    { loc: ['body', 'to'], msg: 'field required', type: 'value_error.missing' },
    { loc: ['body', 'subject'], msg: 'field required', type: 'value_error.missing' },
  ],
});
const aiNotInThisRelease = answer(405, {
  status: 'ko',
  error: 'Cwai not implemented',
  i18n_code: 'cwai_not_implemened',
});
const models = answer(200, { status: 'ok', models: ['gpt2'] });
const authFailed = answer(401, { error: 'authentification failed', i18n_code: 'auth_failed' });

/** The loads and prompts the plugin sent while the service was faked. */
const sent = async () => (await testSite.state()) as { loads?: string[]; prompts?: unknown[] };

async function fakeService(answers: {
  email?: Answer;
  models?: Answer;
  load?: Answer;
  prompt?: Answer;
}) {
  const response = await fetch(`${site.url}/wp-json/sitebeam-test/v1/upstream`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(answers),
  });
  expect(response.ok).toBe(true);
}

test.describe.configure({ mode: 'serial' });

test.beforeEach(async () => {
  await stub.reset();
  await testSite.resetRateLimits();
  await testSite.resetState();
});

test.afterEach(async () => {
  await fetch(`${site.url}/wp-json/sitebeam-test/v1/upstream`, { method: 'DELETE' });
});

test('Test connection reads the service’s 422 as a token that works and says how email and AI each stand', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  const notice = page.locator('.sitebeam-notice');

  await fakeService({ email: missingFields, models: aiNotInThisRelease });
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toHaveClass(/notice-warning/);
  await expect(notice).toContainText('the token is accepted and email sending is enabled');
  await expect(notice).toContainText('AI: This instance’s release has no AI API');
  await expect(notice).not.toContainText('cannot be reached');

  await fakeService({ email: missingFields, models });
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toHaveClass(/notice-success/);
  await expect(notice).toContainText('AI: the instance lists its models');

  await fakeService({ email: authFailed, models });
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(notice).toHaveClass(/notice-error/);
  await expect(notice).toContainText('the token is wrong');
  expect(await stub.messages()).toEqual([]);
});

test('a visitor address the service refuses is marked on the field and what was typed is kept', async ({
  page,
}) => {
  const link = await testSite.page(
    'Contact the service refuses',
    '<!-- wp:sitebeam/contact-form /-->',
  );
  await fakeService({
    email: answer(422, {
      detail: [
        {
          loc: ['body', 'replyto'],
          msg: 'value is not a valid email address',
          type: 'value_error.email',
        },
      ],
    }),
  });
  await page.goto(link);
  const form = page.locator('form[data-sitebeam-form]');
  await page.fill('[name=name]', 'Ana');
  await page.fill('[name=email]', 'ana@example.com');
  await page.fill('[name=message]', 'Hello');
  await form.locator('button[type=submit]').click();
  await expect(page.locator('[name=email]')).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toHaveAttribute('data-state', 'error');
  await expect(form.locator('[data-sitebeam-status]')).toContainText('Please check');
  await expect(page.locator('[name=message]')).toHaveValue('Hello');
  await expect(page.locator('[name=email]')).toHaveValue('ana@example.com');
});

test('the console ends a load the service answers 202 without progress, and shows no score it did not give', async ({
  page,
}) => {
  await fakeService({
    load: answer(202, { status: 'ok', http_status: 202 }),
    prompt: answer(201, { status: 'ok', response: ['Hello there'], cid: '5d1c', score: null }),
  });
  await logIn(page);
  await page.goto('/wp-admin/admin.php?page=sitebeam-chat');
  await page.getByLabel('Model').selectOption('mock');
  await page.getByRole('button', { name: 'Load model' }).click();
  await expect(page.locator('[data-sitebeam-load-status]')).toHaveText(
    'mock is loading on the instance, which tells no progress: prompt it in a few minutes.',
  );
  expect((await sent()).loads).toEqual(['mock']);

  await page.getByLabel('num_beans').fill('2');
  await page.getByLabel('Message', { exact: true }).fill('Hi');
  await page.getByRole('button', { name: 'Prompt', exact: true }).click();
  const answerShown = page.locator('.sitebeam-console-answer').first();
  await expect(answerShown).toContainText('Hello there');
  await expect(answerShown.locator('.sitebeam-console-score')).toHaveCount(0);
  expect((await sent()).prompts).toEqual([
    { model: 'mock', message: 'Hi', settings: { num_beans: 2 } },
  ]);
});
