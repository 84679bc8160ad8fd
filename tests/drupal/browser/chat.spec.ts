// The Sitebeam chat on a real Drupal: the settings, the block (with and without JavaScript), the
// console for the site's team, with Debian's Chromium and the real stub (models take 2 s to load).
import { axeViolations } from '../../support/axe.ts';
import {
  adminPage,
  anonymousContext,
  closeContext,
  drupalUrl,
  expect,
  injectFault,
  saveSettings,
  saveSettingsRefused,
  saveStubAddress,
  sendChat,
  settingsPath,
  signedInPage,
  test,
  visitorPage,
} from './site.ts';

test.describe.configure({ mode: 'serial' });

const consolePath = '/admin/config/services/sitebeam/chat';
const chatPage = '/node/1';

test('the settings form offers the instance models and names a mistyped prompt setting', async ({
  browser,
}) => {
  const page = await adminPage(browser);
  await saveStubAddress(page);

  // Saved with the stub's address, the form lists the stub's models.
  await page.getByLabel('Chat on').check();
  await page.getByRole('checkbox', { name: 'mock', exact: true }).check();
  await page.getByRole('checkbox', { name: 'nltksentiment', exact: true }).check();
  await expect(
    page.getByRole('checkbox', { name: 'textblobsentiment', exact: true }),
  ).toBeVisible();
  // Room for every post of these tests within one minute.
  await page.locator('input[name="chat_flood_limit"]').fill('30');
  await page.locator('summary', { hasText: 'Prompt settings' }).click();
  await page.getByLabel('max_length').fill('40');
  await page.getByLabel('temperature').fill('0');
  await saveSettingsRefused(page, 'temperature must be a number greater than 0');

  await page.getByLabel('temperature').fill('0.7');
  await saveSettings(page);
  await expect(page.getByRole('checkbox', { name: 'nltksentiment', exact: true })).toBeChecked();
  await expect(page.getByLabel('temperature')).toHaveValue('0.7');
  await closeContext(page.context());
});

test('a visitor talks to mock, which warms up first, then to nltksentiment, which scores', async ({
  browser,
}) => {
  const page = await visitorPage(browser);
  await page.goto(chatPage);
  const chat = page.locator('sitebeam-chat');
  await expect(chat.getByLabel('Model')).toBeVisible();
  expect(await axeViolations(page), 'the block page at rest').toEqual([]);

  await chat.getByLabel('Your message').fill('Hello there');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(chat.getByRole('status')).toContainText('warming up');
  const turns = chat.locator('.sitebeam-chat-turn');
  await expect(turns).toHaveCount(1);
  await expect(turns.first()).toContainText('mock:');
  await expect(turns.first().locator('.sitebeam-chat-answer')).toContainText('Hello there');
  await expect(turns.first().locator('.sitebeam-chat-score')).toHaveCount(0);

  await chat.getByLabel('Model').selectOption('nltksentiment');
  await chat.getByLabel('Your message').fill('What a lovely day');
  await chat.getByRole('button', { name: 'Send' }).click();
  await expect(turns).toHaveCount(2);
  await expect(turns.nth(1)).toContainText('nltksentiment:');
  await expect(turns.nth(1).locator('.sitebeam-chat-score')).toContainText(/Score: -?\d/);
  expect(await axeViolations(page), 'the block page in a conversation').toEqual([]);
  await closeContext(page.context());
});

test("the API's 429 tells the visitor to wait and keeps the message", async ({ browser }) => {
  const page = await visitorPage(browser);
  await page.goto(chatPage);
  const chat = page.locator('sitebeam-chat');
  const message = 'Are you there? (the 429 test)';
  await injectFault(message, {
    method: 'POST',
    path_prefix: '/v1/ai/prompt',
    status: 429,
    times: 1,
  });
  expect((await sendChat(page, message)).status()).toBe(429);
  await expect(chat.getByRole('status')).toContainText('too many messages');
  await expect(chat.getByLabel('Your message')).toHaveValue(message);
  await closeContext(page.context());
});

test('over the daily chat limit the widget says the chat is closed for today', async ({
  browser,
}) => {
  const setDailyLimit = async (value: string) => {
    const admin = await adminPage(browser);
    await admin.goto(settingsPath);
    await admin.getByLabel('Daily chat limit').fill(value);
    await saveSettings(admin);
    await closeContext(admin.context());
  };
  const page = await visitorPage(browser);
  const chat = page.locator('sitebeam-chat');
  const talk = async (message: string) => {
    await chat.getByLabel('Model').selectOption('mock');
    await chat.getByLabel('Your message').fill(message);
    await chat.getByRole('button', { name: 'Send' }).click();
  };
  // Without a limit (the test site's 0) nothing is counted: the model warms up (a try it retries) before the day's one message.
  await page.goto(chatPage);
  await talk('Warming up');
  await expect(chat.locator('.sitebeam-chat-turn')).toHaveCount(1);
  await setDailyLimit('1');
  try {
    await page.goto(chatPage);
    await talk('The one message of today');
    await expect(chat.locator('.sitebeam-chat-turn')).toHaveCount(1);

    const refused = await sendChat(page, 'One more?');
    expect(refused.status()).toBe(429);
    expect((await refused.json()).i18n_code).toBe('daily_limit_reached');
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(chat.getByRole('status')).toContainText('The chat is closed for today');
    await expect(chat.getByLabel('Your message')).toHaveValue('One more?');
  } finally {
    await closeContext(page.context());
    await setDailyLimit('0');
  }
});

test('without JavaScript the block posts its form and the answer page continues the chat', async ({
  browser,
}) => {
  const page = await visitorPage(browser, { javaScriptEnabled: false });
  await page.goto(chatPage);
  await page.getByLabel('Your message').fill('Plain <b>form</b>');
  await page.getByLabel('Model').selectOption('mock');
  const answer = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && response.url().endsWith('/sitebeam/chat'),
  );
  await page.getByRole('button', { name: 'Send' }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
  expect(response.headers()['cache-control']).toContain('no-store');
  await expect(page.getByRole('heading', { name: 'Chat answer' })).toBeVisible();
  await expect(page.locator('.answer').last()).toContainText('Plain <b>form</b>');
  await expect(page.getByRole('link', { name: 'Back to the site' })).toHaveAttribute(
    'href',
    chatPage,
  );

  await page.getByLabel('Your message').fill('');
  await page.getByLabel('Your message').fill('   ');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert')).toContainText('Please type a message');
  await closeContext(page.context());
});

test('the models answer is never cached', async ({ browser }) => {
  const context = await anonymousContext(browser);
  for (let i = 0; i < 2; i++) {
    const response = await context.request.get('/sitebeam/chat', {
      headers: { Origin: drupalUrl },
    });
    expect(await response.json()).toEqual({ status: 'ok', models: ['mock', 'nltksentiment'] });
    expect(response.headers()['cache-control']).toContain('no-store');
    expect(response.headers()['x-drupal-cache']).not.toBe('HIT');
  }
  await closeContext(context);
});

test('the console loads a model and prompts it with settings', async ({ browser }) => {
  const page = await adminPage(browser);
  await page.goto(consolePath);
  // Core's toolbar has findings of its own (landmark-unique, region): axe checks the console.
  expect(
    await axeViolations(page, { include: [['form#sitebeam-chat-console']] }),
    'the console',
  ).toEqual([]);
  await page.getByLabel('Model').selectOption('textblobsentiment');
  await page.getByRole('button', { name: 'Load model' }).click();
  // The service answers a load 202 and tells no progress (as the stub does): the console says so.
  await expect(page.locator('[data-sitebeam-load-status]')).toHaveText(
    'The instance started loading textblobsentiment. It does not tell when the model is ready: send a prompt, it is answered once the model is loaded.',
  );

  await page.getByLabel('Message', { exact: true }).fill('I love this module');
  await page.locator('summary', { hasText: 'Prompt settings' }).click();
  await page.getByLabel('num_beans').fill('2');
  await page.getByLabel('do_sample').selectOption('true');
  // The stub takes a moment to load a model and answers 503 until then, as the console says:
  // the team sends the prompt again.
  // Each try waits for the page its post brings back (not 3 s: a busy php -S took longer, and a
  // second click cancelled only the browser's side of the first post).
  const answer = page.getByRole('heading', { name: 'Answer of textblobsentiment' });
  await expect(async () => {
    const answered = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await answered;
    expect(await answer.isVisible()).toBe(true);
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText(/^Score: -?\d/)).toBeVisible();
  await expect(page.getByLabel('num_beans')).toHaveValue('2');
  await closeContext(page.context());
});

test('a signed-in user without the console permission is refused', async ({ browser }) => {
  const page = await signedInPage(browser, 'editor');
  const console = await page.goto(consolePath);
  expect(console?.status()).toBe(403);
  const load = await page.request.get(`${consolePath}/load?model=mock`);
  expect(load.status()).toBe(403);
  await closeContext(page.context());
});
