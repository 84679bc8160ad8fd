// A DNS-rebinding page: Chromium resolves evil.example to the test site's address, as a name the
// attacker controls would, so its pages come from Drupal (which answers any Host while
// trusted_host_patterns is unset) under Origin http://evil.example:<port>.
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../support/chromium.ts';
import {
  closeContext,
  drupalUrl,
  expect,
  guardToken,
  newContext,
  settingsPhp,
  stub,
  stubEmails,
  stubUrl,
  test,
} from './site.ts';

test.describe.configure({ mode: 'serial' });

const site = new URL(drupalUrl);
const rebound = `http://evil.example:${site.port}`;

test.use({
  launchOptions: {
    ...chromiumLaunchOptions,
    args: [
      ...chromiumLaunchOptions.args,
      `--host-resolver-rules=MAP evil.example ${site.hostname}`,
    ],
  },
});

async function sendContactForm(page: Page): Promise<{ status: number; body: unknown }> {
  await page.goto(`${rebound}/`);
  await page.getByLabel('Your name').fill('Ann Visitor');
  await page.getByLabel('Your email address').fill('ann@example.com');
  await page.getByLabel('Subject').fill('Prices');
  await page.getByLabel('Message').fill('Sent from a rebound name.');
  // The widget refuses posts within 3 s of its start as automated.
  await page.waitForTimeout(3200);
  const answer = page.waitForResponse(
    (response) =>
      response.url().endsWith('/sitebeam/contact') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Send message' }).click();
  const response = await answer;
  return { status: response.status(), body: await response.json() };
}

// A request naming a Host of its own choosing, as any client but a browser can.
function statusWithHost(host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(`${drupalUrl}/sitebeam/contact`, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
}

test('without trusted_host_patterns a page on a rebound name is refused by the contact form and the chat', async ({
  browser,
}) => {
  await stub('DELETE', '/__stub/emails');
  const context = await newContext(browser);
  const page = await context.newPage();
  guardToken(page);
  const sent = await sendContactForm(page);
  expect(sent).toEqual({
    status: 403,
    body: expect.objectContaining({ i18n_code: 'forbidden_origin' }),
  });
  await expect(page.getByLabel('Message')).toHaveValue('Sent from a rebound name.');
  expect(await stubEmails()).toHaveLength(0);

  // As the chat widget asks, whether the chat is on or not: the origin is judged first. A
  // same-origin GET carries a Referer and no Origin; a POST carries the Origin.
  const chat = await page.evaluate(async () => {
    const models = await fetch('/sitebeam/chat', { headers: { accept: 'application/json' } });
    const prompt = await fetch('/sitebeam/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ model: 'mock', message: 'Hi' }),
    });
    return [
      models.status,
      (await models.json()).i18n_code,
      prompt.status,
      (await prompt.json()).i18n_code,
    ];
  });
  expect(chat).toEqual([403, 'forbidden_origin', 403, 'forbidden_origin']);
  await closeContext(context);
});

test('a name trusted_host_patterns lists is the site, and Drupal answers any other Host 400', async ({
  browser,
}) => {
  const original = readFileSync(settingsPhp, 'utf8');
  try {
    writeFileSync(
      settingsPhp,
      `${original}\n$settings['trusted_host_patterns'] = ['^evil\\.example$', '^${site.hostname.replaceAll('.', '\\.')}$'];\n$config['sitebeam.settings']['base_url'] = '${stubUrl}';\n`,
    );
    await stub('DELETE', '/__stub/emails');
    const context = await newContext(browser);
    const page = await context.newPage();
    guardToken(page);
    expect((await sendContactForm(page)).status).toBe(200);
    await expect(page.getByText('Thank you, your message was sent.')).toBeVisible();
    expect(await stubEmails()).toHaveLength(1);

    expect(await statusWithHost('other.example')).toBe(400);
    await closeContext(context);
  } finally {
    writeFileSync(settingsPhp, original);
  }
});
