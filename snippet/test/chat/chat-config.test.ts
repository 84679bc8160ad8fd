// The chat settings of the relay: read from the environment, checked against the contract's
// prompt setting types, refused with the variable named.
import { describe, expect, it } from 'vitest';
import {
  chatConfigFromEnv,
  createChatHandler,
  createRelayHandler,
  withChat,
} from '../../src/relay/index.js';
import { refusalOf } from '../relay/config-refusal.js';
import { shopConfig } from '../relay/shop-relay.js';

const refusal = (env: Record<string, string>) => refusalOf(() => chatConfigFromEnv(env));

describe('chatConfigFromEnv', () => {
  it('reads the models, the settings and the rate', () => {
    expect(
      chatConfigFromEnv({
        SITEBEAM_CHAT_MODELS: ' mock, nltksentiment  gpt2 ',
        SITEBEAM_CHAT_SETTINGS: '{"max_length": 40, "temperature": 0.5, "do_sample": true}',
        SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '20',
      }),
    ).toEqual({
      models: ['mock', 'nltksentiment', 'gpt2'],
      settings: { max_length: 40, temperature: 0.5, do_sample: true },
      rateLimitPerMinute: 20,
    });
  });

  it('turns the chat off without SITEBEAM_CHAT_MODELS', () => {
    expect(chatConfigFromEnv({})).toEqual({ models: [] });
  });

  it.each([
    [{ SITEBEAM_CHAT_SETTINGS: '{max_length: 4}' }, 'SITEBEAM_CHAT_SETTINGS must be a JSON object'],
    [{ SITEBEAM_CHAT_SETTINGS: '[1]' }, 'SITEBEAM_CHAT_SETTINGS must be a JSON object'],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"max_length": 0}' },
      'SITEBEAM_CHAT_SETTINGS max_length must be a whole number of at least 1',
    ],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"top_k": 2.5}' },
      'SITEBEAM_CHAT_SETTINGS top_k must be a whole number of at least 1',
    ],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"temperature": 0}' },
      'SITEBEAM_CHAT_SETTINGS temperature must be a number above 0',
    ],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"do_sample": "yes"}' },
      'SITEBEAM_CHAT_SETTINGS do_sample must be true or false',
    ],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"num_beams": 3}' },
      'SITEBEAM_CHAT_SETTINGS num_beams is spelled num_beans by the service: write num_beans',
    ],
    [
      { SITEBEAM_CHAT_SETTINGS: '{"temprature": 1}' },
      'SITEBEAM_CHAT_SETTINGS temprature is not a prompt setting',
    ],
    [
      { SITEBEAM_CHAT_MODELS: 'mock <script>' },
      'SITEBEAM_CHAT_MODELS holds "<script>", which is not a model identifier',
    ],
    [
      { SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: 'ten' },
      'SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE must be a whole number',
    ],
    [
      { SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE: '0' },
      'SITEBEAM_CHAT_RATE_LIMIT_PER_MINUTE must be a whole number of at least 1',
    ],
  ])('refuses %j', (env, message) => {
    expect(refusal(env)).toContain(message);
  });
});

describe('withChat', () => {
  const handler = withChat(
    createRelayHandler(shopConfig),
    createChatHandler(shopConfig, { models: ['mock', 'nltksentiment'] }),
  );

  it('serves the chat on /chat and the contact form on every other path', async () => {
    const chat = await handler(new Request('https://relay.example/chat'));
    expect(await chat.json()).toEqual({ status: 'ok', models: ['mock', 'nltksentiment'] });
    // GET on the contact path hands out a fill-time ticket: the contact handler answered it.
    const contact = await handler(new Request('https://relay.example/contact'));
    expect(await contact.json()).toMatchObject({ status: 'ok', ticket: expect.any(String) });
  });
});
