import { expect, test } from '@playwright/test';
import {
  eventually,
  logIn,
  site,
  startAndEndWithTheInstalledSite,
  stub,
  testSite,
} from './site.ts';

startAndEndWithTheInstalledSite();

test.beforeEach(async () => {
  await stub.reset();
  await testSite.resetState();
  await testSite.settings({ route_mail: true, fallback: false });
});

test('a password-reset mail reaches the user through the API', async ({ page }) => {
  await page.goto('/wp-login.php?action=lostpassword');
  await page.fill('#user_login', site.admin);
  await page.click('#wp-submit');
  await expect(page).toHaveURL(/checkemail=confirm/);
  const messages = await eventually(stub.messages, (list) => list.length > 0);
  expect(messages).toHaveLength(1);
  expect(messages[0]?.to).toBe(site.adminEmail);
  expect(messages[0]?.subject).toContain('Password Reset');
  expect(messages[0]?.content).toContain('action=rp');
  expect((await testSite.state()).phpmailer).toBeUndefined();
});

test('a mail with Cc, Bcc and two attachments reaches every recipient, Bcc undisclosed', async () => {
  const result = await testSite.sendMail({
    to: ['Ann <ann@example.com>', 'bob@example.com'],
    subject: 'Minutes',
    message: 'See the <attached> files.',
    headers: [
      'Cc: Carol <carol@example.com>',
      'Bcc: secret@example.com',
      'From: Office <office@example.com>',
    ],
    attachments: [
      ['notes.txt', 'meeting notes'],
      ['figures.csv', 'a,b\n1,2'],
    ],
  });
  expect(result.sent).toBe(true);
  const messages = await stub.messages();
  expect(messages.map((message) => message.to).sort()).toEqual([
    'ann@example.com',
    'bob@example.com',
    'carol@example.com',
    'secret@example.com',
  ]);
  for (const message of messages) {
    expect(message.subject).toBe('Minutes');
    expect(message.content).toBe('See the &lt;attached&gt; files.');
    expect(message.from).toBe('office@example.com');
    expect(message.from_name).toBe('Office');
    expect(message.bcc).toBeUndefined();
    if (message.to !== 'secret@example.com')
      expect(JSON.stringify(message)).not.toContain('secret@');
    expect(message.attachment?.file_name).toBe('attachments.zip');
    expect(message.attachment?.mime_type).toBe('application/zip');
    const zip = Buffer.from(message.attachment?.b64 ?? '', 'base64');
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes('notes.txt')).toBe(true);
    expect(zip.includes('figures.csv')).toBe(true);
  }
});

test('an API refusal fires wp_mail_failed, or hands the mail to WordPress when the fallback is on', async ({
  page,
}) => {
  // Both sends of this test are refused for good (400), and only they: their message is this test's
  // own. A passing failure (5xx) would keep the mail in the outbox instead (outbox.spec.ts).
  const message = 'Sent while the API refuses';
  await stub.failEmail(message, { status: 400, times: 2 });
  const failed = await testSite.sendMail({ to: 'ann@example.com', subject: 'Fault one', message });
  expect(failed.sent).toBe(false);
  const state = await testSite.state();
  expect(state.wp_mail_failed?.[0]?.data.failed_recipients).toEqual(['ann@example.com']);
  expect(state.phpmailer).toBeUndefined();

  await testSite.resetState();
  await testSite.settings({ fallback: true });
  await testSite.sendMail({ to: 'ann@example.com', subject: 'Fault two', message });
  expect((await testSite.state()).phpmailer).toEqual([['ann@example.com']]);
  expect(await stub.messages()).toEqual([]);

  await logIn(page);
  await page.goto('/wp-admin/options-general.php?page=sitebeam');
  const log = page.locator('.sitebeam-log tbody tr');
  await expect(log.nth(0)).toContainText('Fault two');
  // The test site has no sendmail: WordPress's own mailer fails too, and the log says so.
  await expect(log.nth(0)).toContainText('Failed: the API and WordPress’s own mailer');
  await expect(log.nth(0)).toContainText('WordPress’s own mailer failed too:');
  await expect(log.nth(1)).toContainText('Fault one');
  await expect(log.nth(1)).toContainText('Failed');
});
