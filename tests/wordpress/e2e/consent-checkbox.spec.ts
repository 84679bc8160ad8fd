import { expect, test } from '@playwright/test';
import {
  atLeast,
  eventually,
  logIn,
  startAndEndWithTheInstalledSite,
  stub,
  testSite,
  watchConsole,
  watchForToken,
} from './site.ts';

// The owner turns the consent checkboxes on in Settings → Sitebeam; a visitor of the contact form or the chat must
// tick them, and the owner's mail says they agreed.
startAndEndWithTheInstalledSite();
// Posts count against the visitor's rate limit, which every spec's visitor (the same address) shares.
test.beforeAll(testSite.resetRateLimits);
test.afterAll(testSite.resetRateLimits);

interface WpGlobal {
  blocks: { getBlockType: (name: string) => unknown; createBlock: (name: string) => unknown };
  data: {
    dispatch: (store: string) => Record<string, (...args: unknown[]) => unknown>;
    select: (store: string) => Record<string, (...args: unknown[]) => unknown>;
  };
}

const label = 'I agree that my message is kept to answer me';
const policy = 'https://example.com/privacy';

test('with consent asked, the block shows it, an unticked form is refused with the box marked and a ticked one is sent', async ({
  page,
}) => {
  const tokenChecks = watchForToken(page);
  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  await page.fill('#sitebeam-contact_consent', label);
  await page.fill('#sitebeam-contact_policy', policy);
  await page.click('#submit');
  await expect(page.locator('#setting-error-settings_updated')).toContainText('Settings saved');
  await expect(page.locator('#sitebeam-contact_consent')).toHaveValue(label);

  // The block's sidebar and preview show the site's checkbox.
  await page.goto('/wp-admin/post-new.php');
  await page.waitForFunction(() => {
    const w = (globalThis as unknown as { wp?: WpGlobal }).wp;
    return Boolean(
      w?.blocks?.getBlockType('sitebeam/contact-form') &&
        w.data.select('core/editor').getCurrentPostId?.(),
    );
  }, undefined);
  await page.evaluate(() => {
    const w = (globalThis as unknown as { wp: WpGlobal }).wp;
    w.data.dispatch('core/preferences').set?.('core/edit-post', 'welcomeGuide', false);
    w.data
      .dispatch('core/block-editor')
      .insertBlocks?.(w.blocks.createBlock('sitebeam/contact-form'));
  });
  const canvas = atLeast(6, 3) ? page.frameLocator('iframe[name="editor-canvas"]') : page;
  await expect(canvas.locator('.sitebeam-contact-preview')).toContainText(label);
  await expect(page.locator('.block-editor-block-inspector')).toContainText(
    `On: visitors must tick “${label}” to send a message.`,
  );
  await expect(
    page.locator('.block-editor-block-inspector').getByRole('link', { name: policy }),
  ).toHaveAttribute('href', policy);
  // Leave the editor before signing out: a request it still had to make (the template's preview)
  // would otherwise go out without the cookies and log its 403 into the visitor's console below.
  await page.goto('about:blank');
  await page.context().clearCookies();

  const consoleProblems = watchConsole(page);
  await page.goto(await testSite.page('Contact', '<!-- wp:sitebeam/contact-form /-->'));
  const form = page.locator('form[data-sitebeam-form]');
  const consent = form.getByRole('checkbox', { name: label });
  await expect(consent).not.toBeChecked();
  await expect(form.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', policy);
  await form.locator('[name=name]').fill('Ann Example');
  await form.locator('[name=email]').fill('ann@example.com');
  await form.locator('[name=message]').fill('Hello');
  await page.waitForTimeout(3100); // the protocol refuses a ticket younger than 3 s
  await form.locator('button[type=submit]').click();
  await expect(consent).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toHaveAttribute('data-state', 'error');
  await expect(form.locator('[name=message]')).toHaveValue('Hello');
  expect(await stub.messages()).toEqual([]);

  await consent.check();
  await form.locator('button[type=submit]').click();
  await expect(form.locator('[data-sitebeam-status]')).toContainText(
    'Thank you, your message has been sent.',
  );
  await expect(consent).not.toHaveAttribute('aria-invalid', 'true');
  const messages = await eventually(stub.messages, (list) => list.length > 0);
  expect(messages).toHaveLength(1);
  expect(messages[0]?.content).toContain(`The visitor agreed: ${label}`);
  expect(await tokenChecks()).toBeGreaterThan(0);
  // Refused by the endpoint, the browser logs the status (a widget that checks the box first posts nothing).
  expect(consoleProblems().filter((line) => !line.includes('status of 400'))).toEqual([]);
});

test('with consent asked for the chat, the widget draws the checkbox and sends only once it is ticked', async ({
  page,
}) => {
  await testSite.settings({
    chat_enabled: true,
    chat_models: ['mock'],
    chat_consent: 'I agree that the chat keeps my message',
    chat_policy: policy,
  });
  const consoleProblems = watchConsole(page);
  await page.goto(await testSite.page('Chat', '<!-- wp:sitebeam/chat /-->'));
  const consent = page.getByRole('checkbox', { name: 'I agree that the chat keeps my message' });
  await expect(consent).not.toBeChecked();
  await expect(
    page.locator('sitebeam-chat').getByRole('link', { name: 'Privacy policy' }),
  ).toHaveAttribute('href', policy);
  const input = page.getByLabel('Your message');
  await input.fill('Hello');
  await input.press('Enter');
  await expect(consent).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveValue('Hello');
  await consent.check();
  await input.press('Enter');
  await expect(
    page.getByRole('log', { name: 'Conversation' }).locator('.sitebeam-chat-answer p'),
  ).toHaveText(['Hello']);
  expect(consoleProblems().filter((line) => !line.includes('status of 400'))).toEqual([]);
});
