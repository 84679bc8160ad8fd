// The chat through WordPress in Debian's Chromium: a visitor on a page holding the "Sitebeam chat" block, and the
// site's team on Sitebeam → Chat, both talking to the real stub's models through the plugin's REST routes.
import { expect, type Page, request, test } from '@playwright/test';
import { axeViolations } from '../../support/axe.ts';
import {
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  stub,
  testSite,
  watchConsole,
  watchForToken,
} from './site.ts';

startAndEndWithTheInstalledSite();

const texts = {
  warming: 'The model is warming up, trying again shortly…',
  rateLimited: 'Not sent: too many messages. Please wait a minute and try again.',
  closedToday: 'The chat is closed for today. Please come back tomorrow.',
};
const consolePage = '/wp-admin/admin.php?page=sitebeam-chat';
let chatUrl = '';

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });

async function say(page: Page, message: string) {
  const input = page.getByLabel('Your message');
  await input.fill(message);
  await input.press('Enter');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  await testSite.settings({
    chat_enabled: true,
    chat_models: ['mock', 'nltksentiment'],
    chat_settings: { max_length: 50 },
    chat_rate_limit: 10,
  });
  chatUrl = await testSite.page('Ask us', '<!-- wp:sitebeam/chat /-->');
});

test.beforeEach(async () => {
  await stub.clearFaults();
  await testSite.resetRateLimits();
});

test('a visitor chats through the block with mock and nltksentiment, the score shown for nltksentiment only', async ({
  page,
}) => {
  const tokenChecks = watchForToken(page);
  const consoleProblems = watchConsole(page);
  await page.goto(chatUrl);
  const picker = page.getByLabel('Model');
  await expect(picker.locator('option')).toHaveText(['mock', 'nltksentiment']);

  await say(page, 'Hello <b>there</b>');
  await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText(['Hello <b>there</b>']);
  await expect(log(page).locator('b')).toHaveCount(0);
  await expect(log(page).locator('.sitebeam-chat-score')).toHaveCount(0);

  await picker.selectOption('nltksentiment');
  await say(page, 'What a wonderful, lovely day');
  const second = log(page).locator('.sitebeam-chat-turn').nth(1);
  await expect(second.locator('.sitebeam-chat-who').nth(1)).toHaveText('nltksentiment:');
  await expect(second.locator('.sitebeam-chat-score')).toHaveText(/^Score: 0\.\d+$/);
  // The whole page but the theme's navigation (Twenty Twenty-Five's has landmark-unique and list violations).
  expect(
    await axeViolations(page, { exclude: [['.wp-block-navigation']] }),
    'in a conversation',
  ).toEqual([]);
  expect(await tokenChecks()).toBeGreaterThan(2);
  expect(consoleProblems()).toEqual([]);
});

test('a model that is loading: the widget says so, retries after Retry-After, then answers', async ({
  page,
}) => {
  await page.goto(chatUrl);
  await expect(page.getByLabel('Model')).toBeVisible();
  await stub.promptLoadingOnce('Are you awake?');
  const loading = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.status() === 503,
  );
  await say(page, 'Are you awake?');
  expect((await loading).headers()['retry-after']).toBe('1');
  await expect(page.getByRole('status')).toHaveText(texts.warming);
  await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText(['Are you awake?']);
  await expect(page.getByRole('status')).toBeEmpty();
});

test('over the chat rate limit: 429, the message is kept', async ({ page }) => {
  await testSite.settings({ chat_rate_limit: 2 });
  try {
    await page.goto(chatUrl);
    for (const message of ['one', 'two']) {
      await say(page, message);
      await expect(log(page).locator('.sitebeam-chat-turn').last()).toContainText(message);
    }
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await say(page, 'three');
    expect((await refused).status()).toBe(429);
    await expect(page.getByRole('status')).toHaveText(texts.rateLimited);
    await expect(page.getByLabel('Your message')).toHaveValue('three');
  } finally {
    await testSite.settings({ chat_rate_limit: 10 });
  }
});

test('over the daily chat limit: 429 until the next UTC day, the chat says it is closed for today', async ({
  page,
}) => {
  await testSite.settings({ chat_daily_limit: 1 });
  try {
    await page.goto(chatUrl);
    await say(page, 'one');
    await expect(log(page).locator('.sitebeam-chat-turn').last()).toContainText('one');
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await say(page, 'two');
    const answer = await refused;
    expect(answer.status()).toBe(429);
    const untilMidnight = 86_400 - (Math.floor(Date.now() / 1000) % 86_400);
    expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(untilMidnight - 60);
    expect(Number(answer.headers()['retry-after'])).toBeLessThanOrEqual(untilMidnight + 60);
    await expect(page.getByRole('status')).toHaveText(texts.closedToday);
    await expect(page.getByLabel('Your message')).toHaveValue('two');
  } finally {
    await testSite.settings({ chat_daily_limit: '' });
  }
});

test('a translated site shows the chat texts in its language', async ({ page }) => {
  await testSite.translate({
    'Your message': 'Ihre Nachricht',
    'Please type a message.': 'Bitte <eine> Nachricht eingeben.',
    'Score: %': 'Wertung: %',
  });
  try {
    await page.goto(chatUrl);
    await expect(page.getByLabel('Ihre Nachricht')).toBeVisible();
    await page.getByLabel('Ihre Nachricht').press('Enter');
    await expect(page.getByRole('status')).toHaveText('Bitte <eine> Nachricht eingeben.');
    await page.getByLabel('Model').selectOption('nltksentiment');
    await page.getByLabel('Ihre Nachricht').fill('What a wonderful, lovely day');
    await page.getByLabel('Ihre Nachricht').press('Enter');
    await expect(log(page).locator('.sitebeam-chat-score')).toHaveText(/^Wertung: 0\.\d+$/);
  } finally {
    await testSite.translate({});
  }
});

test('without JavaScript the plain form posts to the route and gets a page with the answer', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(chatUrl);
  await page.getByLabel('Message').fill('<i>plain</i> question');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Answer (mock)' })).toBeVisible();
  await expect(page.locator('section').last().locator('p')).toHaveText(['<i>plain</i> question']);
  await expect(page.getByRole('link', { name: 'Back to the site' })).toHaveAttribute(
    'href',
    chatUrl,
  );
  await context.close();
});

test('the team loads a model and prompts it on Sitebeam → Chat', async ({ page }) => {
  const tokenChecks = watchForToken(page);
  const consoleProblems = watchConsole(page);
  await logIn(page);
  await page.goto(consolePage);
  await expect(page.getByRole('heading', { name: 'Sitebeam chat' })).toBeVisible();
  const model = page.getByLabel('Model');
  await expect(model.locator('option')).toHaveText([
    'mock',
    'log',
    'nltksentiment',
    'textblobsentiment',
  ]);
  await model.selectOption('nltksentiment');
  await page.getByRole('button', { name: 'Load model' }).click();
  // The service answers a load 202 and tells no progress (as the stub does): the console says so.
  await expect(page.locator('[data-sitebeam-load-status]')).toHaveText(
    'nltksentiment is loading on the instance, which tells no progress: prompt it in a few minutes.',
  );
  // The plugin's page, not WordPress's own menus and toolbar around it.
  expect(
    await axeViolations(page, { include: [['#wpbody-content .wrap']] }),
    'the console',
  ).toEqual([]);

  await page.getByLabel('max_length').fill('30');
  await page.getByLabel('do_sample').selectOption('true');
  await page.getByLabel('Message', { exact: true }).fill('What a wonderful, lovely day');
  await page.getByRole('button', { name: 'Prompt', exact: true }).click();
  const answer = page.locator('.sitebeam-console-answer').first();
  await expect(answer.getByRole('heading')).toHaveText('nltksentiment');
  await expect(answer.locator('.sitebeam-console-score')).toHaveText(/^Score: 0\.\d+$/);
  expect(await tokenChecks()).toBeGreaterThan(2);
  expect(consoleProblems()).toEqual([]);
});

test('the Chat settings list the instance models and name a mistyped prompt setting', async ({
  page,
}) => {
  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  const allowed = page.locator('input[name="sitebeam_settings[chat_models][]"]');
  await expect(allowed).toHaveCount(4);
  await expect(page.getByRole('checkbox', { name: 'textblobsentiment' })).not.toBeChecked();
  await page.getByRole('checkbox', { name: 'textblobsentiment' }).check();
  await page.getByRole('radio', { name: 'default (textblobsentiment)' }).check();
  await page.getByLabel('temperature').fill('0');
  await page.click('#submit');
  await expect(page.locator('#setting-error-sitebeam_chat_settings_temperature')).toContainText(
    'The prompt setting temperature must be a number greater than 0.',
  );
  await page.goto(chatUrl);
  await expect(page.getByLabel('Model').locator('option')).toHaveText([
    'textblobsentiment',
    'mock',
    'nltksentiment',
  ]);
});

test('a user without the capability gets neither the page nor the routes', async ({ page }) => {
  await logIn(page, 'subscriber', 'subscriber-password');
  const denied = await page.goto(consolePage);
  expect(denied?.status()).toBe(403);
  const nonce = await (await page.request.get('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
  for (const path of ['models', 'models/mock']) {
    const response = await page.request.get(`/wp-json/sitebeam/v1/console/${path}`, {
      headers: { 'X-WP-Nonce': nonce },
    });
    expect(response.status(), path).toBe(403);
  }
  const prompt = await page.request.post('/wp-json/sitebeam/v1/console/prompt', {
    headers: { 'X-WP-Nonce': nonce },
    data: { model: 'mock', message: 'Hello' },
  });
  expect(prompt.status()).toBe(403);
  const anonymous = await request.newContext({ baseURL: site.url });
  expect((await anonymous.get('/wp-json/sitebeam/v1/console/models')).status()).toBe(401);
  await anonymous.dispose();
});
