// The typed client (snippet/src/client) against the stub and the real service: the same assertions
// on each, the right behaviour of issue #19.
import { expect, it } from 'vitest';
import { createClient, SitebeamApiError } from '../../snippet/src/client/index.js';
import { describeEachService } from './services.ts';

async function failure(call: Promise<unknown>): Promise<SitebeamApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SitebeamApiError);
  return error as SitebeamApiError;
}

describeEachService('typed client', (service, kind) => {
  const client = (token = service().token) => createClient({ baseUrl: service().url, token });

  it('sends an email, and the service received it', async () => {
    const sent = await client().sendEmail({
      to: 'someone@example.com',
      subject: 'Order 42',
      content: 'Hello from the client',
    });
    expect(sent.status).toBe('ok');
    expect(Object.values(sent)).not.toContain(undefined);
    const mail = (await service().sentMail()).at(-1);
    expect(mail).toMatchObject({ to: 'someone@example.com', subject: 'Order 42' });
  });

  it('an address the service refuses is an error naming the field, not a bare HTTP status', async () => {
    for (const to of ['not-an-address', 'ana@shop.local', 'ana@example.test']) {
      const error = await failure(client().sendEmail({ to, subject: 'Hi', content: 'x' }));
      expect([400, 422], `${to}: ${error.status} ${error.message}`).toContain(error.status);
      expect(error.message, to).toMatch(/\bto\b/);
      expect(error.message, to).not.toMatch(/^HTTP \d+$/);
    }
  });

  it('a wrong token is 401 auth_failed', async () => {
    const error = await failure(
      client('not-a-token').sendEmail({ to: 'a@example.com', subject: 'x' }),
    );
    expect(error.status).toBe(401);
    expect(error.code).toBe('auth_failed');
  });

  it('tracks a view and answers the record', async () => {
    const record = await client().track('shop.example.com', {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)',
    });
    expect(record).toMatchObject({ status: 'ok', website: 'shop.example.com' });
  });

  it('a website name the path cannot carry is refused with a message saying so', async () => {
    const error = await client()
      .track('shop.example.com/blog')
      .then(
        () => undefined,
        (reason: unknown) => reason as Error,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toMatch(/website/i);
    expect(error?.message).not.toMatch(/^HTTP 404$/);
  });

  if (!kind.ai) {
    it('every AI call says the AI API is not implemented here (405 cwai_not_implemened)', async () => {
      const calls = [
        () => client().listModels(),
        () => client().prompt({ model: service().model, message: 'Hello' }),
      ];
      for (const call of calls) {
        const error = await failure(call());
        expect(error.status).toBe(405);
        expect(error.code).toBe('cwai_not_implemened');
      }
    });
    return;
  }

  it('lists the models', async () => {
    expect((await client().listModels()).models).toContain(service().model);
  });

  it('loads a model (202 accepted) and refuses an unknown one as cwai_model_notfound', async () => {
    const accepted = await client().loadModel(service().model);
    expect(accepted.status).toBe('ok');
    const error = await failure(client().loadModel('no-such-model'));
    expect(error.status).toBe(404);
    expect(error.code).toBe('cwai_model_notfound');
  });

  it('prompts (201 on upstream) without a null score', async () => {
    const answer = await client().prompt({ model: service().model, message: 'Hello' });
    expect(answer.status).toBe('ok');
    expect(answer.response.length).toBeGreaterThan(0);
    expect(answer.score === undefined || typeof answer.score === 'number').toBe(true);
  });

  if (kind.hasAccountWithoutAi) {
    it('an account without the AI API is told so (403), not asked to log in again', async () => {
      const error = await failure(client(service().tokenWithoutAi).listModels());
      expect(error.status).toBe(403);
      expect(['not_cwaiapi', 'not_aiapi']).toContain(error.code);
    });
  }
});
