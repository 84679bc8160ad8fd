// The chat widget in Debian's Chromium: a customer page on its own origin, the real
// `sitebeam-relay` command serving /chat, and the real stub's models behind it.

import { type Browser, expect, type Page, test } from '@playwright/test';
import { type RunningRelay, startRelay } from '../../snippet/test/relay/start-relay.ts';
import { axeViolations } from '../support/axe.ts';
import { answersOf, dialogsOf, expectNoFaultLeftAfterEach } from '../support/e2e-checks.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, injectFault, type RunningStub, startStub } from '../support/stub-server.ts';

const accountEmail = 'chat@example.com';
const pages: Record<string, string> = {};
let stub: RunningStub;
let slowStub: RunningStub;
let site: StaticSite;
let relay: RunningRelay;
let strictRelay: RunningRelay;
let warmingRelay: RunningRelay;
let budgetRelay: RunningRelay;
let token: string;

const texts = {
  warming: 'The model is warming up, trying again shortly…',
  rateLimited: 'Not sent: too many messages. Please wait a minute and try again.',
  closedToday: 'The chat is closed for today. Please come back tomorrow.',
  server: 'Not sent: the chat had a problem. Please try again.',
};

function chatPage(action: string, lang = 'en') {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>Ask us</title>
<style>body{font-family:Georgia,serif;color:#222;background:#fffdf5}
sitebeam-chat{--sitebeam-accent:#14532d;--sitebeam-accent-text:#fff}</style>
<script defer src="/sitebeam-chat.min.js"></script></head>
<body><main><h1>Ask us</h1>
<sitebeam-chat action="${action}">
  <form method="post" action="${action}">
    <p><label for="message">Message</label><textarea id="message" name="message" required maxlength="4000"></textarea></p>
    <p><label for="model">Model</label><select id="model" name="model"><option>mock</option><option>nltksentiment</option></select></p>
    <div aria-hidden="true" style="position:absolute;left:-9999px"><label>Leave this field empty <input name="homepage" tabindex="-1" autocomplete="off"></label></div>
    <p><button type="submit">Send</button></p>
  </form>
</sitebeam-chat>
</main></body></html>`;
}

const stubJson = (path: string, method = 'GET', body?: unknown) =>
  callStub(stub, path, method, body);

async function aiAccount(target: RunningStub): Promise<string> {
  const account = await callStub<{ token: string }>(target, '/__stub/accounts', 'POST', {
    email: accountEmail,
    email_api: false,
    ai_api: true,
  });
  return account.token;
}

function chatRelay(api: RunningStub, apiToken: string, env: Record<string, string>) {
  return startRelay({
    SITEBEAM_API_URL: api.url,
    SITEBEAM_API_TOKEN: apiToken,
    SITEBEAM_CONTACT_TO: 'dev@example.com',
    SITEBEAM_CONTACT_FROM: 'forms@example.com',
    SITEBEAM_ALLOWED_ORIGINS: site.url,
    SITEBEAM_SITE_NAME: 'Example Shop',
    SITEBEAM_CHAT_SETTINGS: '{"max_length": 50}',
    ...env,
  });
}

async function say(page: Page, message: string) {
  const input = page.getByLabel('Your message');
  await input.fill(message);
  await input.press('Enter');
}

const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });

test.beforeAll(async () => {
  [stub, slowStub, site] = await Promise.all([
    startStub(),
    startStub(['--load-delay-ms', '2500']),
    startStaticSite(pages),
  ]);
  token = await aiAccount(stub);
  expect(token).toBeTruthy();
  [relay, strictRelay, warmingRelay, budgetRelay] = await Promise.all([
    chatRelay(stub, token, {
      SITEBEAM_CHAT_MODELS: 'mock,nltksentiment',
      SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '100',
    }),
    chatRelay(stub, token, {
      SITEBEAM_CHAT_MODELS: 'mock',
      SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '2',
    }),
    chatRelay(slowStub, await aiAccount(slowStub), { SITEBEAM_CHAT_MODELS: 'nltksentiment' }),
    chatRelay(stub, token, { SITEBEAM_CHAT_MODELS: 'mock', SITEBEAM_CHAT_DAILY_LIMIT: '1' }),
  ]);
  pages['/chat'] = chatPage(`${relay.url}/chat`);
  pages['/chat-fr'] = chatPage(`${relay.url}/chat`, 'fr');
  pages['/strict'] = chatPage(`${strictRelay.url}/chat`);
  pages['/warming'] = chatPage(`${warmingRelay.url}/chat`);
  pages['/budget'] = chatPage(`${budgetRelay.url}/chat`);
});

test.afterAll(async () => {
  await Promise.all([
    relay?.stop(),
    strictRelay?.stop(),
    warmingRelay?.stop(),
    budgetRelay?.stop(),
  ]);
  await site?.close();
  await Promise.all([stub?.stop(), slowStub?.stop()]);
});

expectNoFaultLeftAfterEach(() => stub);

test('a keyboard-only conversation with mock and nltksentiment, answers shown as text', async ({
  page,
}) => {
  const dialogs = dialogsOf(page);
  await page.goto(`${site.url}/chat`);
  const input = page.getByLabel('Your message');
  const picker = page.getByLabel('Model');
  await expect(picker).toBeVisible();
  await expect(picker.locator('option')).toHaveText(['mock', 'nltksentiment']);
  // Styled through the page's custom properties.
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCSS(
    'background-color',
    'rgb(20, 83, 45)',
  );

  await input.focus();
  await page.keyboard.type('Hello <img src=x onerror=alert(1)>');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  await page.keyboard.press('Enter');
  await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText([
    'Hello <img src=x onerror=alert(1)>',
    'second line',
  ]);
  await expect(log(page)).toContainText('You: Hello <img src=x onerror=alert(1)>');
  // mock has no natural score: none is shown.
  await expect(log(page).locator('.sitebeam-chat-score')).toHaveCount(0);
  await expect(log(page).locator('img')).toHaveCount(0);
  await expect(input).toHaveValue('');
  await expect(input).toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await expect(picker).toBeFocused();
  await picker.selectOption('nltksentiment');
  await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  await page.keyboard.type('What a wonderful, lovely day');
  await page.keyboard.press('Enter');
  const second = log(page).locator('.sitebeam-chat-turn').nth(1);
  await expect(second.locator('.sitebeam-chat-who').nth(1)).toHaveText('nltksentiment:');
  await expect(second.locator('.sitebeam-chat-score')).toHaveText(/^Score: 0\.\d+$/);
  await expect(input).toBeFocused();
  expect(dialogs).toEqual([]);

  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(log(page).locator('.sitebeam-chat-turn')).toHaveCount(0);
  await expect(input).toBeFocused();
});

test('a model that is loading: the widget says so, retries after Retry-After, then answers', async ({
  page,
}) => {
  const prompts: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') prompts.push(Date.now());
  });
  await page.goto(`${site.url}/warming`);
  // One model allowed: no picker.
  await expect(page.getByLabel('Your message')).toBeVisible();
  await expect(page.getByLabel('Model')).toBeHidden();
  await say(page, 'I am happy');
  await expect(page.getByRole('status')).toHaveText(texts.warming);
  await expect(log(page).locator('.sitebeam-chat-score')).toHaveText(/^Score: /, {
    timeout: 15_000,
  });
  await expect(page.getByRole('status')).toBeEmpty();
  expect(prompts.length).toBeGreaterThanOrEqual(2);
  // The stub's Retry-After is 3 s for a 2.5 s load: the retry waited for it.
  expect((prompts[1] as number) - (prompts[0] as number)).toBeGreaterThanOrEqual(2_900);
});

test('over the visitor rate limit: 429, the message is kept', async ({ page }) => {
  await page.goto(`${site.url}/strict`);
  for (const message of ['one', 'two']) {
    await say(page, message);
    await expect(log(page).locator('.sitebeam-chat-turn').last()).toContainText(message);
  }
  const answered = page.waitForResponse((response) => response.request().method() === 'POST');
  await say(page, 'three');
  const response = await answered;
  expect(response.status()).toBe(429);
  expect(Number(response.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('status')).toHaveText(texts.rateLimited);
  await expect(page.getByLabel('Your message')).toHaveValue('three');
  await expect(log(page).locator('.sitebeam-chat-turn')).toHaveCount(2);
});

test('an API failure keeps the typed message and a second try answers', async ({ page }) => {
  await injectFault(
    stub,
    { body_contains: '"message":"Are you there?"' },
    { method: 'POST', path_prefix: '/v1/ai/prompt', status: 500, times: 1 },
  );
  await page.goto(`${site.url}/chat`);
  await say(page, 'Are you there?');
  await expect(page.getByRole('status')).toHaveText(texts.server);
  await expect(page.getByLabel('Your message')).toHaveValue('Are you there?');
  await expect(page.getByLabel('Your message')).toBeFocused();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText(['Are you there?']);
  await expect(page.getByLabel('Your message')).toBeFocused();
});

test('texts follow the page language (French)', async ({ page }) => {
  await page.goto(`${site.url}/chat-fr`);
  await expect(page.getByLabel('Votre message')).toBeVisible();
  await expect(page.getByLabel('Modèle')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Envoyer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Recommencer' })).toBeVisible();
});

test.describe('without JavaScript', () => {
  /** The chat page in a browser context without JavaScript, `message` typed in. */
  async function noScriptChat(browser: Browser, message: string) {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/chat`);
    await page.getByLabel('Message').fill(message);
    return { context, page };
  }

  test('the plain form posts to the same endpoint and gets a page with the answer', async ({
    browser,
  }) => {
    const { context, page } = await noScriptChat(browser, '<b>bold</b> question');
    await page.getByLabel('Model').selectOption('mock');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('heading', { name: 'Answer (mock)' })).toBeVisible();
    await expect(page.locator('section').last().locator('p')).toHaveText(['<b>bold</b> question']);
    await expect(page.locator('b')).toHaveCount(0);
    // The page carries the form again: the conversation goes on without JavaScript.
    await page.getByLabel('Message').fill('And now?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('section').last().locator('p')).toHaveText(['And now?']);
    await context.close();
  });

  test('a refused post keeps the message on the page that names the problem', async ({
    browser,
  }) => {
    const { context, page } = await noScriptChat(browser, 'Keep me');
    await page
      .getByLabel('Model')
      .evaluate((select) => select.insertAdjacentHTML('beforeend', '<option>gpt2</option>'));
    await page.getByLabel('Model').selectOption('gpt2');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toHaveText('Model must be one of mock, nltksentiment.');
    await expect(page.getByLabel('Message')).toHaveValue('Keep me');
    await context.close();
  });
});

test('axe finds no accessibility violation: at rest, in a conversation, with an error', async ({
  page,
}) => {
  await page.goto(`${site.url}/chat`);
  await expect(page.getByLabel('Model')).toBeVisible();
  expect(await axeViolations(page), 'at rest').toEqual([]);
  await say(page, 'Hello');
  await expect(log(page).locator('.sitebeam-chat-turn')).toHaveCount(1);
  expect(await axeViolations(page), 'in a conversation').toEqual([]);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status')).toHaveText('Please type a message.');
  expect(await axeViolations(page), 'with an error').toEqual([]);
});

test('the API token appears in no page or answer the browser receives', async ({ page }) => {
  const seen = answersOf(page);
  await page.goto(`${site.url}/chat`);
  await say(page, 'first');
  await expect(log(page).locator('.sitebeam-chat-turn')).toHaveCount(1);
  await injectFault(
    stub,
    { body_contains: '"message":"second"' },
    { method: 'POST', path_prefix: '/v1/ai/prompt', status: 500, times: 1 },
  );
  await say(page, 'second');
  await expect(page.getByRole('status')).toHaveText(texts.server);
  await stubJson(`/__stub/accounts/${encodeURIComponent(accountEmail)}`, 'PATCH', {
    ai_api: false,
  });
  try {
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status')).toHaveText('The chat is not available right now.');
  } finally {
    await stubJson(`/__stub/accounts/${encodeURIComponent(accountEmail)}`, 'PATCH', {
      ai_api: true,
    });
  }
  // The models listing and three posts reached the relay.
  await expect.poll(() => seen.filter((entry) => entry.startsWith(relay.url)).length).toBe(4);
  for (const entry of seen) expect(entry).not.toContain(token);
});

test("the stub's demo page chats with the stub's models through its own relay", async ({
  page,
}) => {
  const demo = await startStub();
  try {
    const seen = answersOf(page);
    const cspErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') cspErrors.push(message.text());
    });
    await page.goto(`${demo.url}/`);
    const picker = page.getByLabel('Model');
    await expect(picker.locator('option')).toHaveText([
      'mock',
      'log',
      'nltksentiment',
      'textblobsentiment',
    ]);
    await say(page, 'Hello from the demo');
    await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText(['Hello from the demo']);
    await picker.selectOption('textblobsentiment');
    await say(page, 'A truly great day');
    await expect(log(page).locator('.sitebeam-chat-score')).toHaveText(/^Score: /);
    await expect(page.getByRole('button', { name: 'Ask' })).toBeVisible();
    expect(cspErrors).toEqual([]);
    // The demo relay holds the stub's default account's token.
    expect(seen.length).toBeGreaterThan(3);
    for (const entry of seen) expect(entry).not.toContain('dev-token');
  } finally {
    await demo.stop();
  }
});

test('over the daily budget the widget says the chat is closed for today and keeps the message', async ({
  page,
}) => {
  await page.goto(`${site.url}/budget`);
  await say(page, 'First of the day');
  await expect(log(page).locator('.sitebeam-chat-answer p')).toHaveText(['First of the day']);
  await say(page, 'One too many');
  await expect(page.getByRole('status')).toHaveText(texts.closedToday);
  await expect(page.getByLabel('Your message')).toHaveValue('One too many');
  await expect(log(page).locator('.sitebeam-chat-turn')).toHaveCount(1);
});
