// The consent checkbox of the contact block on a real Drupal: the owner turns it on in the settings
// form, a visitor who leaves it unticked is refused with the box marked, a ticked one sends, and the
// owner's mail (the stub's) says what the visitor agreed to.
import type { Page } from '@playwright/test';
import {
  adminPage,
  anonymousContext,
  closeContext,
  expect,
  fillContactForm,
  saveSettings,
  saveStubAddress,
  settingsPath,
  stub,
  stubEmails,
  test,
  visitorPage,
} from './site.ts';

test.describe.configure({ mode: 'serial' });

const consentText = 'I agree that my message is kept to answer me';

/** Turns the consent checkbox of `part` on (with consentText and a /privacy link) or off. */
async function askForConsent(admin: Page, part: 'contact' | 'chat', asked: boolean): Promise<void> {
  await admin.goto(settingsPath);
  const ask = admin.locator(`input[name="${part}_consent_enabled"]`);
  const text = admin.locator(`input[name="${part}_consent_label"]`);
  if (asked) {
    // #states: the text and the link appear, the text required, once consent is asked for.
    await ask.uncheck();
    await expect(text).toBeHidden();
    await ask.check();
    await expect(text).toBeVisible();
    await expect(text).toHaveAttribute('required', 'required');
    await text.fill(consentText);
    await admin.locator(`input[name="${part}_consent_policy_url"]`).fill('/privacy');
  } else {
    await ask.uncheck();
  }
  await saveSettings(admin);
}

/** The stub's address saved, so that the form lists its models; the chat on with mock. */
async function connectWithChat(admin: Page): Promise<void> {
  await saveStubAddress(admin);
  await admin.getByLabel('Chat on').check();
  await admin.getByRole('checkbox', { name: 'mock', exact: true }).check();
  await saveSettings(admin);
}

test('consent asked: unticked is refused and marked, ticked sends and the mail says so', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  try {
    await connectWithChat(admin);
    await askForConsent(admin, 'contact', true);
    await stub('DELETE', '/__stub/emails');

    const page = await visitorPage(browser);
    await page.goto('/');
    const consent = page.getByRole('checkbox', { name: consentText });
    await expect(consent).toBeVisible();
    await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'target',
      '_blank',
    );
    const message = 'May I come on Tuesday?';
    await fillContactForm(page, message);
    // The widget refuses posts within 3 s of its start as automated.
    await page.waitForTimeout(3200);

    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(consent).toHaveAttribute('aria-invalid', 'true');
    await expect(consent).toBeFocused();
    await expect(page.getByLabel('Message', { exact: true })).toHaveValue(message);
    expect(await stubEmails()).toHaveLength(0);

    await consent.check();
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Thank you, your message was sent.')).toBeVisible();
    const emails = await stubEmails();
    expect(emails).toHaveLength(1);
    expect(emails[0]?.content).toContain(message);
    expect(emails[0]?.content).toContain(`The visitor agreed: ${consentText}`);
    await closeContext(page.context());

    // Without JavaScript the ticked box goes with the native post.
    await stub('DELETE', '/__stub/emails');
    const plain = await anonymousContext(browser, { javaScriptEnabled: false });
    const plainPage = await plain.newPage();
    await plainPage.goto('/');
    await fillContactForm(plainPage, 'Sent without JavaScript, with consent.');
    await plainPage.getByRole('checkbox', { name: consentText }).check();
    await plainPage.waitForTimeout(3200);
    await plainPage.getByRole('button', { name: 'Send message' }).click();
    await expect(plainPage).toHaveURL(/[?&]sent=1$/);
    expect((await stubEmails()).map((mail) => mail.content)).toEqual([
      expect.stringContaining(`The visitor agreed: ${consentText}`),
    ]);
    await closeContext(plain);
  } finally {
    await askForConsent(admin, 'contact', false);
    await closeContext(admin.context());
  }

  // Off again: the block shows no checkbox (the page cache follows the settings' cache tag).
  const after = await anonymousContext(browser);
  const afterPage = await after.newPage();
  await afterPage.goto('/');
  await expect(afterPage.getByLabel('Your name')).toBeVisible();
  await expect(afterPage.locator('input[name="consent"]')).toHaveCount(0);
  await closeContext(after);
});

test('consent asked for the chat: the widget draws the box, refuses a message without it, sends with it', async ({
  browser,
}) => {
  const admin = await adminPage(browser);
  try {
    await connectWithChat(admin);
    await askForConsent(admin, 'chat', true);

    const page = await visitorPage(browser);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/sitebeam/chat'))
        posts.push(request.postData() ?? '');
    });
    await page.goto('/node/1');
    const chat = page.locator('sitebeam-chat');
    const consent = chat.getByRole('checkbox', { name: consentText });
    await expect(consent).toBeVisible();
    // The block's path became an absolute address: the widget links only those.
    await expect(chat.getByRole('link', { name: /privacy/i })).toHaveAttribute(
      'href',
      /^http:\/\/127\.0\.0\.1:\d+\/privacy$/,
    );
    await chat.getByLabel('Your message').fill('Hello with consent');
    await chat.getByRole('button', { name: 'Send' }).click();
    await expect(consent).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);

    await consent.check();
    await chat.getByRole('button', { name: 'Send' }).click();
    const turns = chat.locator('.sitebeam-chat-turn');
    await expect(turns).toHaveCount(1);
    await expect(turns.first().locator('.sitebeam-chat-answer')).toContainText(
      'Hello with consent',
    );
    expect(JSON.parse(posts.at(-1) ?? '{}')).toMatchObject({ consent: true });
    await closeContext(page.context());

    // Without JavaScript the block's own form carries the box.
    const plain = await anonymousContext(browser, { javaScriptEnabled: false });
    const plainPage = await plain.newPage();
    await plainPage.goto('/node/1');
    await expect(plainPage.getByRole('checkbox', { name: consentText })).toHaveAttribute(
      'required',
      '',
    );
    await closeContext(plain);
  } finally {
    await askForConsent(admin, 'chat', false);
    await closeContext(admin.context());
  }
});
