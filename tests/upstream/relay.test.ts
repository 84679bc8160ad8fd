// The relay (its Node handlers, snippet/src/relay) in front of the stub and of the real service: a
// visitor's message delivered, an address the service would refuse refused at once naming the
// field, the chat answering or saying that the AI API is absent.
import { expect, it } from 'vitest';
import { createChatHandler, createRelayHandler } from '../../snippet/src/relay/index.js';
import { createTicketIssuer, ticketKey } from '../../snippet/src/relay/ticket.js';
import { startRelay } from '../../snippet/test/relay/start-relay.ts';
import { describeEachService } from './services.ts';

const site = 'https://shop.example';
const ticketSecret = 'upstream-layer-ticket-secret';
const owner = 'owner@shop.example';

it('the relay refuses to start with a recipient the service would refuse, naming the variable', async () => {
  const env = {
    SITEBEAM_API_URL: 'http://127.0.0.1:9',
    SITEBEAM_API_TOKEN: 'any-token',
    SITEBEAM_ALLOWED_ORIGINS: site,
    SITEBEAM_TICKET_SECRET: ticketSecret,
    SITEBEAM_SITE_NAME: 'Example Shop',
    SITEBEAM_CONTACT_FROM: 'forms@shop.example',
    SITEBEAM_CONTACT_TO: 'owner@example.test',
  };
  // Started anyway, it is stopped and its output shows it did not refuse.
  const said = await startRelay(env).then(
    async (relay) => {
      await relay.stop();
      return `started: ${relay.output()}`;
    },
    (refusal: Error) => refusal.message,
  );
  expect(said).not.toMatch(/^started/);
  expect(said).toContain('SITEBEAM_CONTACT_TO');
});

describeEachService('relay', (service, kind) => {
  const contact = async (fields: Record<string, string>) => {
    const handler = createRelayHandler({
      apiUrl: service().url,
      apiToken: service().token,
      contactTo: owner,
      contactFrom: 'forms@shop.example',
      allowedOrigins: [site],
      siteName: 'Example Shop',
      ticketSecret,
      log: () => {},
    });
    const issuer = createTicketIssuer(ticketKey(ticketSecret, service().token), 0);
    const ticket = await issuer.issue(Date.now() - 5_000);
    const request = new Request(`${site}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({ subject: 'Hello', message: 'A question', ...fields, ticket }),
    });
    const response = await handler(request, { clientIp: '203.0.113.7' });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("delivers a visitor's message to the owner, replies going to the visitor", async () => {
    const answer = await contact({ name: 'Ana', email: 'ana@example.com' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await service().sentMail()).at(-1)).toMatchObject({
      to: owner,
      replyto: 'ana@example.com',
    });
  });

  it('refuses a visitor address at .local at once: 400 naming email, nothing sent', async () => {
    const before = (await service().sentMail()).length;
    const answer = await contact({ name: 'Ana', email: 'ana@shop.local' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.field).toBe('email');
    expect(await service().sentMail()).toHaveLength(before);
  });

  const chat = async () => {
    const handler = createChatHandler(
      {
        apiUrl: service().url,
        apiToken: service().token,
        allowedOrigins: [site],
        publicUrl: site,
        log: () => undefined,
      },
      { models: [service().model], settings: {}, rateLimitPerMinute: 100 },
    );
    const request = new Request(`${site}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({ message: 'Hello' }),
    });
    const response = await handler(request, { clientIp: '203.0.113.8' });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  if (kind.ai) {
    it('chat answers with the model, a null score left out', async () => {
      const answer = await chat();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ status: 'ok', model: service().model });
      expect((answer.body.response as string[]).length).toBeGreaterThan(0);
      expect(answer.body.score).not.toBeNull();
    });
  } else {
    it('chat says the AI API is absent, not "try again" (no 502)', async () => {
      const answer = await chat();
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).not.toBe(502);
      expect(answer.body.i18n_code).not.toBe('upstream_failed');
    });
  }
});
