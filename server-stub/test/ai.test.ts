import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError, startTestStub, type TestStub } from './helpers.js';

let stub: TestStub;
beforeAll(async () => {
  stub = await startTestStub();
});
afterAll(() => stub.close());

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
  it('mock echoes the message, one line per line, with score 0', async () => {
    const answer = await stub.client.prompt({
      model: 'mock',
      message: 'hello\nworld',
      settings: {},
    });
    expect(answer).toEqual({ response: ['hello', 'world'], score: 0, status: 'ok' });
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
    expect(Math.sign(answer.score)).toBe({ positive: 1, negative: -1, neutral: 0 }[label]);
    expect(answer.response[0]).toMatch(
      new RegExp(`^The predicted sentiment is: ${label}, score: -?[\\d.]+$`),
    );
  });

  it('accepts the recognised settings with their types and ignores unknown keys', async () => {
    const settings = {
      max_length: 50,
      num_return_sequences: 1,
      no_repeat_ngram_size: 2,
      num_beams: 4,
      top_k: 50,
      top_p: 0.9,
      temperature: 0.7,
      early_stopping: true,
      do_sample: false,
      skip_special_tokens: true,
      something_else: 'ignored',
    };
    expect((await prompt({ model: 'mock', message: 'x', settings })).status).toBe(200);
  });

  it.each([
    ['max_length', '50'],
    ['num_beams', 0],
    ['top_k', 1.5],
    ['top_p', 0],
    ['temperature', -1],
    ['do_sample', 'yes'],
    ['early_stopping', 1],
  ])('refuses settings.%s = %j with 400 naming it', async (key, value) => {
    const error = await expectContractError(
      await prompt({ model: 'mock', message: 'x', settings: { [key]: value } }),
      400,
      'invalid_payload',
    );
    expect(error.error).toMatch(new RegExp(`^settings\\.${key}:`));
  });

  it.each([
    ['no model', { message: 'x' }, /^model: is required/],
    ['no message', { model: 'mock' }, /^message: is required/],
    ['a number as message', { model: 'mock', message: 7 }, /^message:/],
    ['a message of 32,769 characters', { model: 'mock', message: 'x'.repeat(32_769) }, /^message:/],
    ['settings as an array', { model: 'mock', message: 'x', settings: [] }, /^settings:/],
  ])('refuses %s with 400 invalid_payload', async (_case, body, message) => {
    const error = await expectContractError(await prompt(body), 400, 'invalid_payload');
    expect(error.error).toMatch(message);
  });

  it('accepts a message of exactly 32,768 characters', async () => {
    expect((await prompt({ model: 'mock', message: 'x'.repeat(32_768) })).status).toBe(200);
  });

  it('answers 400 model_not_found for a model the instance does not list', async () => {
    await expectContractError(
      await prompt({ model: 'gpt2', message: 'x' }),
      400,
      'model_not_found',
    );
  });

  it('answers 403 not_aiapi for an account not enabled for AI', async () => {
    const created = (await (
      await stub.postJson('/__stub/accounts', { email: 'mail-only@example.test', email_api: true })
    ).json()) as { token: string };
    await expectContractError(
      await prompt({ model: 'mock', message: 'x' }, { 'x-auth-token': created.token }),
      403,
      'not_aiapi',
    );
    await expectContractError(
      await stub.request('/v1/ai/models', { headers: { 'x-auth-token': created.token } }),
      403,
      'not_aiapi',
    );
  });
});

describe('GET /v1/ai/model/{model}', () => {
  it('answers ready at once when models load instantly', async () => {
    expect(await stub.client.loadModel('mock')).toEqual({
      status: 'ok',
      model: 'mock',
      state: 'ready',
    });
  });

  it('answers 404 model_not_found for an unknown model', async () => {
    const response = await stub.request('/v1/ai/model/gpt2', {
      headers: { 'x-auth-token': 'dev-token' },
    });
    await expectContractError(response, 404, 'model_not_found');
  });

  it('with --load-delay-ms: 202 loading, prompts answer 503 model_loading, then 200 ready', async () => {
    const slow = await startTestStub({ loadDelayMs: 300, models: ['mock', 'nltksentiment'] });
    try {
      expect(await slow.client.listModels()).toMatchObject({ models: ['mock', 'nltksentiment'] });
      const first = await slow.request('/v1/ai/model/mock', {
        headers: { 'x-auth-token': 'dev-token' },
      });
      expect(first.status).toBe(202);
      expect(await first.json()).toEqual({ status: 'ok', model: 'mock', state: 'loading' });

      const early = await slow.postJson('/v1/ai/prompt', { model: 'mock', message: 'x' });
      await expectContractError(early, 503, 'model_loading');
      expect(early.headers.get('retry-after')).toBe('1');

      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await slow.client.loadModel('mock')).toMatchObject({ state: 'ready' });
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
