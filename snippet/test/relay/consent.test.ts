// The consent checkbox in the relay: its settings (variables and options), the native pages that
// show it, and the owner's mail that says the visitor agreed. The protocol's answers to posts with
// and without consent are the conformance cases' (conformance.test.ts).
import { describe, expect, it } from 'vitest';
import {
  chatConfigFromEnv,
  configFromEnv,
  createChatHandler,
  type RelayConfig,
  resolveConfig,
} from '../../src/relay/index.js';
import { refusalOf } from './config-refusal.js';
import { nativePost, shopRelay, site } from './shop-relay.js';

const contactEnv = {
  SITEBEAM_API_URL: 'https://api.example',
  SITEBEAM_API_TOKEN: 'secret-token',
  SITEBEAM_CONTACT_TO: 'owner@shop.example',
  SITEBEAM_CONTACT_FROM: 'forms@shop.example',
  SITEBEAM_ALLOWED_ORIGINS: site,
  SITEBEAM_SITE_NAME: 'Shop',
};
const hostileLabel = 'I agree to <b>"the terms"</b> & more';
const consent = { label: hostileLabel, policyUrl: 'https://shop.example/privacy?a=1&b="2"' };

describe('the consent settings', () => {
  it('are off unless a label is set', () => {
    expect(configFromEnv(contactEnv).consent).toBeUndefined();
    expect(chatConfigFromEnv({ SITEBEAM_CHAT_MODELS: 'gpt2' }).consent).toBeUndefined();
  });

  it('are read from the contact and chat variables', () => {
    const contact = configFromEnv({
      ...contactEnv,
      SITEBEAM_CONTACT_CONSENT: ' I agree ',
      SITEBEAM_CONTACT_CONSENT_URL: 'https://shop.example/privacy',
    });
    expect(resolveConfig(contact).consent).toEqual({
      label: 'I agree',
      policyUrl: 'https://shop.example/privacy',
    });
    const chat = chatConfigFromEnv({
      SITEBEAM_CHAT_MODELS: 'gpt2',
      SITEBEAM_CHAT_CONSENT: 'I agree to the chat',
    });
    expect(chat.consent).toEqual({ label: 'I agree to the chat' });
  });

  it('refuse a policy that is not https (or loopback http), naming the variable', () => {
    for (const url of ['http://shop.example/privacy', 'javascript:alert(1)', 'not a url']) {
      expect(
        refusalOf(() =>
          configFromEnv({
            ...contactEnv,
            SITEBEAM_CONTACT_CONSENT: 'I agree',
            SITEBEAM_CONTACT_CONSENT_URL: url,
          }),
        ),
      ).toMatch(/^SITEBEAM_CONTACT_CONSENT_URL must be an https URL/);
    }
    expect(
      configFromEnv({
        ...contactEnv,
        SITEBEAM_CONTACT_CONSENT: 'I agree',
        SITEBEAM_CONTACT_CONSENT_URL: 'http://127.0.0.1:8080/privacy',
      }).consent?.policyUrl,
    ).toBe('http://127.0.0.1:8080/privacy');
    expect(
      refusalOf(() =>
        chatConfigFromEnv({
          SITEBEAM_CHAT_MODELS: 'gpt2',
          SITEBEAM_CHAT_CONSENT: 'I agree',
          SITEBEAM_CHAT_CONSENT_URL: 'ftp://shop.example/privacy',
        }),
      ),
    ).toMatch(/^SITEBEAM_CHAT_CONSENT_URL must be an https URL/);
  });

  it('refuse a policy without a label, rather than ignore it', () => {
    expect(
      refusalOf(() =>
        configFromEnv({ ...contactEnv, SITEBEAM_CONTACT_CONSENT_URL: 'https://shop.example/p' }),
      ),
    ).toBe(
      "SITEBEAM_CONTACT_CONSENT_URL is set but SITEBEAM_CONTACT_CONSENT (the checkbox's label, which turns it on) is not",
    );
  });

  it('refuse a label with a control character, naming the option', () => {
    const config = { ...configFromEnv(contactEnv), consent: { label: 'I agree\nto all' } };
    expect(refusalOf(() => resolveConfig(config))).toBe(
      'consent.label must be one non-empty line of text',
    );
  });
});

const contactRelay = (config: Partial<RelayConfig> = {}) => shopRelay({ consent, ...config });
const post = (url: string, body: string, from = site) => nativePost(url, body, from);

/** The checkbox as the pages render it: label and policy link escaped, the link in a new tab. */
function expectCheckbox(page: string, ticked: boolean) {
  expect(page).toContain(
    `<input type="checkbox" name="consent" value="yes" required${ticked ? ' checked' : ''}> I agree to &lt;b&gt;&quot;the terms&quot;&lt;/b&gt; &amp; more</label>`,
  );
  expect(page).toContain(
    '<a href="https://shop.example/privacy?a=1&amp;b=%222%22" target="_blank" rel="noopener">',
  );
  expect(page).not.toContain('<b>"the terms"');
}

describe('the contact relay with the checkbox on', () => {
  const typed = {
    name: 'Ann',
    email: 'ann@example.com',
    subject: 'Hi',
    message: 'Keep <this> text',
  };

  async function ticketed() {
    const { handler, fetch } = contactRelay();
    const confirm = await handler(
      post('https://relay.example/contact', new URLSearchParams(typed).toString()),
    );
    const page = await confirm.text();
    expectCheckbox(page, false);
    const ticket = /name="ticket" value="([^"]+)"/.exec(page)?.[1] as string;
    return { handler, fetch, ticket };
  }

  it('answers a native post without consent with the form again: text kept, box to tick, nothing sent', async () => {
    const { handler, fetch, ticket } = await ticketed();
    const refused = await handler(
      post('https://relay.example/contact', new URLSearchParams({ ...typed, ticket }).toString()),
    );
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('<p role="alert">Please tick the consent box');
    expect(page).toContain('Keep &lt;this&gt; text</textarea>');
    expect(page).toContain(`name="ticket" value="${ticket}"`);
    expectCheckbox(page, false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends a ticked post, and the mail says what the visitor agreed to (escaped)', async () => {
    const { handler, fetch, ticket } = await ticketed();
    const sent = await handler(
      post(
        'https://relay.example/contact',
        new URLSearchParams({ ...typed, ticket, consent: 'yes' }).toString(),
      ),
    );
    expect(sent.status).toBe(303);
    const mail = JSON.parse(fetch.mock.calls[0]?.[1].body as string);
    expect(mail.content).toContain(
      '<p>The visitor agreed: I agree to &lt;b&gt;&quot;the terms&quot;&lt;/b&gt; &amp; more</p>',
    );
  });

  it('keeps the box ticked on the confirmation page when the visitor had ticked it', async () => {
    const { handler } = contactRelay();
    const page = await (
      await handler(
        post(
          'https://relay.example/contact',
          new URLSearchParams({ ...typed, consent: 'yes' }).toString(),
        ),
      )
    ).text();
    expectCheckbox(page, true);
  });

  it('shows no checkbox and writes no agreement when it is off', async () => {
    const { handler, fetch } = contactRelay({ consent: undefined });
    const page = await (
      await handler(post('https://relay.example/contact', new URLSearchParams(typed).toString()))
    ).text();
    expect(page).not.toContain('name="consent"');
    const ticket = /name="ticket" value="([^"]+)"/.exec(page)?.[1] as string;
    await handler(
      post('https://relay.example/contact', new URLSearchParams({ ...typed, ticket }).toString()),
    );
    expect(JSON.parse(fetch.mock.calls[0]?.[1].body as string).content).not.toContain(
      'The visitor agreed',
    );
  });
});

describe('the chat page with the checkbox on', () => {
  const chat = createChatHandler(
    {
      apiUrl: 'https://api.example',
      apiToken: 'token',
      allowedOrigins: [site],
      fetch: (async () =>
        Response.json({ status: 'ok', response: ['an answer'] })) as typeof globalThis.fetch,
      log: () => {},
    },
    { models: ['gpt2'], consent },
  );

  it('shows the box to tick after a refusal, and ticked again with the answer', async () => {
    const refused = await chat(post('https://relay.example/chat', 'message=Hello'));
    expect(refused.status).toBe(400);
    expectCheckbox(await refused.text(), false);
    const answered = await chat(post('https://relay.example/chat', 'message=Hello&consent=on'));
    expect(answered.status).toBe(200);
    const page = await answered.text();
    expect(page).toContain('an answer');
    expectCheckbox(page, true);
  });
});
