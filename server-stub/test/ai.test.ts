import { describe, expect, it } from 'vitest';
import {
  expectContractError,
  expectValidationFailure,
  startTestStub,
  UUID_V4,
  useTestStub,
} from './helpers.js';

const stub = useTestStub();

const prompt = (body: unknown, headers: Record<string, string> = {}) =>
  stub.postJson('/v1/ai/prompt', body, headers);

describe('GET /v1/ai/models', () => {
  it('lists the models the stub serves', async () => {
    expect(await stub.client.listModels()).toEqual({
      models: ['mock', 'log', 'nltksentiment', 'textblobsentiment'],
      status: 'ok',
    });
  });

  it('needs a token', async () => {
    await expectContractError(await stub.request('/v1/ai/models'), 401, 'auth_failed');
  });
});

describe('POST /v1/ai/prompt', () => {
  it('mock echoes the message, one line per line, answering 201 with a null score and a cid', async () => {
    const response = await prompt({ model: 'mock', message: 'hello\nworld', settings: {} });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer).toEqual({
      response: ['hello', 'world'],
      score: null,
      status: 'ok',
      cid: expect.stringMatching(UUID_V4),
    });
  });

  it('log writes the prompt to the server log and says so', async () => {
    const answer = await stub.client.prompt({
      model: 'log',
      message: 'remember this',
      settings: { top_k: 3 },
    });
    expect(answer.response).toEqual(['The prompt was written to the server log.']);
    const entry = stub.logLines.map((line) => JSON.parse(line)).find((e) => e.model === 'log');
    expect(entry).toMatchObject({
      type: 'prompt',
      message: 'remember this',
      settings: { top_k: 3 },
    });
  });

  // Reference values are NLTK's own (nltk.sentiment.vader, as published in VADER's README).
  it.each([
    ['VADER is smart, handsome, and funny.', 0.8316, 'positive'],
    ['VADER is not smart, handsome, nor funny.', -0.7424, 'negative'],
    ['I love this product', 0.6369, 'positive'],
    ['The book was kind of good.', 0.3832, 'positive'],
    ['A really bad, horrible book.', -0.8211, 'negative'],
    ['It is a table.', 0, 'neutral'],
  ])('nltksentiment scores "%s" like NLTK (%d)', async (message, score, label) => {
    const answer = await stub.client.prompt({ model: 'nltksentiment', message });
    expect(answer.score).toBeCloseTo(score, 4);
    expect(answer.response).toEqual([`The predicted sentiment is: ${label}, score: ${score}`]);
  });

  it.each([
    ['What a great, wonderful day', 'positive'],
    ['This is terrible and awful', 'negative'],
    ['This is not a very good movie', 'negative'],
    ['The sky is blue', 'neutral'],
  ])('textblobsentiment gives "%s" a %s polarity in [-1, 1]', async (message, label) => {
    const answer = await stub.client.prompt({ model: 'textblobsentiment', message });
    expect(answer.score).toBeGreaterThanOrEqual(-1);
    expect(answer.score).toBeLessThanOrEqual(1);
    expect(Math.sign(answer.score ?? Number.NaN)).toBe(
      { positive: 1, negative: -1, neutral: 0 }[label],
    );
    expect(answer.response[0]).toMatch(
      new RegExp(`^The predicted sentiment is: ${label}, score: -?[\\d.]+$`),
    );
  });

  it('accepts the recognised settings with their types and ignores unknown keys', async () => {
    const settings = {
      max_length: 50,
      num_return_sequences: 1,
      no_repeat_ngram_size: 2,
      num_beans: 4,
      top_k: 50,
      top_p: 0.9,
      temperature: 0.7,
      early_stopping: true,
      do_sample: false,
      skip_special_tokens: true,
      something_else: 'ignored',
    };
    expect((await prompt({ model: 'mock', message: 'x', settings })).status).toBe(201);
  });

  it.each([
    ['max_length', '50'],
    ['num_beans', 0],
    ['top_k', 1.5],
    ['top_p', 0],
    ['temperature', -1],
    ['do_sample', 'yes'],
    ['early_stopping', 1],
  ])('refuses settings.%s = %j with 422 naming it', async (key, value) => {
    const problems = await expectValidationFailure(
      await prompt({ model: 'mock', message: 'x', settings: { [key]: value } }),
    );
    expect(problems).toMatch(new RegExp(`^settings\\.${key}:`));
  });

  it.each([
    ['no model', { message: 'x' }, /^model: field required/],
    ['no message', { model: 'mock' }, /^message: field required/],
    ['a number as message', { model: 'mock', message: 7 }, /^message:/],
    ['a message of 32,769 characters', { model: 'mock', message: 'x'.repeat(32_769) }, /^message:/],
    ['settings as an array', { model: 'mock', message: 'x', settings: [] }, /^settings:/],
  ])('refuses %s with 422 naming the field', async (_case, body, message) => {
    expect(await expectValidationFailure(await prompt(body))).toMatch(message);
  });

  it('accepts a message of exactly 32,768 characters', async () => {
    expect((await prompt({ model: 'mock', message: 'x'.repeat(32_768) })).status).toBe(201);
  });

  it('answers 500 "Internal server error" for a model the instance does not list, as the service does', async () => {
    const response = await prompt({ model: 'gpt2', message: 'x' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: 'Internal server error' });
  });

  it('answers 403 not_cwaiapi without status or cid for an account not enabled for AI', async () => {
    const created = (await (
      await stub.postJson('/__stub/accounts', { email: 'mail-only@example.com', email_api: true })
    ).json()) as { token: string };
    for (const response of [
      await prompt({ model: 'mock', message: 'x' }, { 'x-auth-token': created.token }),
      await stub.request('/v1/ai/models', { headers: { 'x-auth-token': created.token } }),
    ]) {
      expect(response.status).toBe(403);
      expect(response.headers.get('x-cwcloud-cid')).toMatch(UUID_V4);
      expect(await response.json()).toEqual({
        error: 'permission denied',
        i18n_code: 'not_cwaiapi',
      });
    }
  });
});

describe('the community release (--ce)', () => {
  it('answers every AI route 405 cwai_not_implemened after authentication, email still works', async () => {
    const ce = await startTestStub({ communityEdition: true });
    try {
      const auth = { 'x-auth-token': 'dev-token' };
      for (const response of [
        await ce.request('/v1/ai/models', { headers: auth }),
        await ce.request('/v1/ai/model/mock', { headers: auth }),
        await ce.postJson('/v1/ai/prompt', { model: 'mock', message: 'x' }),
      ]) {
        await expectContractError(response, 405, 'cwai_not_implemened');
      }
      await expectContractError(await ce.request('/v1/ai/models'), 401, 'auth_failed');
      expect(await ce.client.sendEmail({ to: 'a@example.com', subject: 's' })).toMatchObject({
        status: 'ok',
      });
    } finally {
      await ce.close();
    }
  });
});

describe('GET /v1/ai/model/{model}', () => {
  it('answers 202 with the service body: loading started, no state', async () => {
    const response = await stub.request('/v1/ai/model/mock', {
      headers: { 'x-auth-token': 'dev-token' },
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ status: 'ok', http_status: 202 });
  });

  it('answers 404 cwai_model_notfound for an unknown model', async () => {
    const response = await stub.request('/v1/ai/model/gpt2', {
      headers: { 'x-auth-token': 'dev-token' },
    });
    await expectContractError(response, 404, 'cwai_model_notfound');
  });

  it('with --load-delay-ms: prompts answer 503 model_loading until the model is loaded', async () => {
    const slow = await startTestStub({ loadDelayMs: 300, models: ['mock', 'nltksentiment'] });
    try {
      expect(await slow.client.loadModel('mock')).toEqual({ status: 'ok', http_status: 202 });
      const early = await slow.postJson('/v1/ai/prompt', { model: 'mock', message: 'x' });
      await expectContractError(early, 503, 'model_loading');
      expect(early.headers.get('retry-after')).toBe('1');

      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await slow.client.prompt({ model: 'mock', message: 'x' })).response).toEqual(['x']);

      // A prompt to a model nobody loaded starts its loading too.
      await expectContractError(
        await slow.postJson('/v1/ai/prompt', { model: 'nltksentiment', message: 'x' }),
        503,
        'model_loading',
      );
    } finally {
      await slow.close();
    }
  });
});
