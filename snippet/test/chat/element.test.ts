// @vitest-environment happy-dom
// <sitebeam-chat> with a scripted endpoint: what it posts, how it waits for a warming model (and
// when it stops), what it keeps and what it shows.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineChat } from '../../src/chat/index.js';

beforeAll(() => defineChat());

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  document.documentElement.lang = 'en';
});

type Reply = [status: number, body: object, headers?: Record<string, string>];

/** Stubs fetch: GET answers the models, each POST the next reply; records the posted bodies. */
function endpoint(models: string[], replies: Reply[]) {
  const posted: Record<string, string>[] = [];
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    if (init.method === 'GET') {
      return new Response(JSON.stringify({ status: 'ok', models }), { status: 200 });
    }
    posted.push(JSON.parse(init.body as string));
    const [status, body, headers] = replies.shift() ?? [500, {}];
    return new Response(JSON.stringify(body), { status, headers });
  });
  vi.stubGlobal('fetch', fetch);
  return posted;
}

async function mount(html = '<sitebeam-chat action="https://relay.example/chat">') {
  document.body.innerHTML = html;
  await vi.waitFor(() => expect(document.querySelector('textarea')).not.toBeNull());
  const input = document.querySelector('textarea') as HTMLTextAreaElement;
  const form = document.querySelector('form') as HTMLFormElement;
  const status = document.querySelector('[role=status]') as HTMLElement;
  const log = document.querySelector('[role=log]') as HTMLElement;
  const send = (message: string) => {
    input.value = message;
    form.requestSubmit();
  };
  return { input, form, status, log, send };
}

/** Lets the fetch promises and the widget's reaction run (setImmediate is not faked). */
async function settle() {
  for (let turn = 0; turn < 5; turn++) await new Promise((resume) => setImmediate(resume));
}

const answer = (model: string, response: string[], score?: number): Reply => [
  200,
  { status: 'ok', model, response, ...(score === undefined ? {} : { score }) },
];
const loading = (seconds: string): Reply => [
  503,
  { status: 'ko', error: 'warming', i18n_code: 'model_loading' },
  { 'retry-after': seconds },
];

describe('<sitebeam-chat>', () => {
  it('replaces the fallback form but posts its hidden inputs, and shows a picker for two models', async () => {
    const posted = endpoint(['mock', 'nltksentiment'], [answer('nltksentiment', ['ok'], -0.25)]);
    const { send, log } = await mount(`<sitebeam-chat action="https://relay.example/chat">
      <form method="post"><textarea name="message"></textarea><input type="hidden" name="_wpnonce" value="n1"></form>
    </sitebeam-chat>`);
    expect(document.querySelectorAll('form')).toHaveLength(1);
    const picker = document.querySelector('select') as HTMLSelectElement;
    await vi.waitFor(() => expect(picker.parentElement?.hidden).toBe(false));
    picker.value = 'nltksentiment';
    send('  Hello  ');
    await vi.waitFor(() => expect(log.textContent).toContain('Score: -0.25'));
    expect(posted).toEqual([{ message: 'Hello', model: 'nltksentiment', _wpnonce: 'n1' }]);
  });

  it('sends no model and shows no picker when one model is allowed', async () => {
    const posted = endpoint(['mock'], [answer('mock', ['Hello'])]);
    const { send, log } = await mount();
    await Promise.resolve();
    expect((document.querySelector('select') as HTMLSelectElement).parentElement?.hidden).toBe(
      true,
    );
    send('Hello');
    await vi.waitFor(() => expect(log.querySelectorAll('.sitebeam-chat-turn')).toHaveLength(1));
    expect(posted).toEqual([{ message: 'Hello' }]);
    expect(log.textContent).not.toContain('Score');
  });

  it('puts answer lines in text nodes, never markup', async () => {
    endpoint(['mock'], [answer('mock', ['<img src=x onerror=alert(1)>', 'two'])]);
    const { send, log } = await mount();
    send('x');
    await vi.waitFor(() => expect(log.querySelectorAll('.sitebeam-chat-answer p')).toHaveLength(2));
    expect(log.querySelector('img')).toBeNull();
    expect(log.querySelector('.sitebeam-chat-answer p')?.textContent).toBe(
      '<img src=x onerror=alert(1)>',
    );
  });

  it('waits Retry-After (capped at 30 s) while the model warms up, then shows the answer', async () => {
    const posted = endpoint(['mock'], [loading('2'), loading('600'), answer('mock', ['ready'])]);
    const { send, status, log, input } = await mount();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    send('Hi');
    await settle();
    expect(status.textContent).toContain('warming up');
    expect(posted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(posted).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(posted).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(posted).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(log.textContent).toContain('ready');
    expect(status.textContent).toBe('');
    expect(input.value).toBe('');
  });

  it('stops after 5 retries, says the model is still warming up and keeps the message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const posted = endpoint(
      ['mock'],
      Array.from({ length: 10 }, () => loading('1')),
    );
    const { send, status, input } = await mount();
    send('Still there?');
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    for (let second = 0; second < 10; second++) await vi.advanceTimersByTimeAsync(1_000);
    expect(posted).toHaveLength(6);
    expect(status.textContent).toBe(
      'The model is still warming up. Please send your message again in a minute.',
    );
    expect(input.value).toBe('Still there?');
  });

  it.each([
    [[429, { status: 'ko', i18n_code: 'rate_limited' }] as Reply, 'too many messages'],
    [[502, { status: 'ko', i18n_code: 'upstream_failed' }] as Reply, 'the chat had a problem'],
    [[400, { status: 'ko', i18n_code: 'invalid_field' }] as Reply, 'could not be sent as it is'],
    [[503, { status: 'ko', i18n_code: 'not_configured' }] as Reply, 'not available'],
  ])('keeps the message on %j', async (reply, text) => {
    endpoint(['mock'], [reply]);
    const { send, status, input, form } = await mount();
    send('Keep me');
    await vi.waitFor(() => expect(status.textContent).toContain(text));
    expect(form.dataset.state).toBe('error');
    expect(input.value).toBe('Keep me');
  });

  it('says offline when the endpoint cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    const { send, status, input } = await mount();
    send('Keep me');
    await vi.waitFor(() => expect(status.textContent).toContain('offline'));
    expect(input.value).toBe('Keep me');
  });

  it('refuses an empty or too long message without posting', async () => {
    const posted = endpoint(['mock'], []);
    const { send, status } = await mount();
    send('   ');
    expect(status.textContent).toBe('Please type a message.');
    // A browser stops typing at maxlength; a pasted or scripted value is checked again.
    document.querySelector('textarea')?.removeAttribute('maxlength');
    send('x'.repeat(4_001));
    expect(status.textContent).toBe('The message is too long.');
    expect(posted).toEqual([]);
  });

  it('starts over: the log is emptied', async () => {
    endpoint(['mock'], [answer('mock', ['one'])]);
    const { send, log } = await mount();
    send('one');
    await vi.waitFor(() => expect(log.children).toHaveLength(1));
    (document.querySelectorAll('button')[1] as HTMLButtonElement).click();
    expect(log.children).toHaveLength(0);
  });

  it('speaks French after the page language, and takes a data-text override', async () => {
    endpoint(['mock'], []);
    document.documentElement.lang = 'fr-CA';
    await mount(
      '<sitebeam-chat action="https://relay.example/chat" data-text-send="Demander"></sitebeam-chat>',
    );
    expect(document.querySelector('label[for$=message]')?.textContent).toBe('Votre message');
    expect([...document.querySelectorAll('button')].map((button) => button.textContent)).toEqual([
      'Demander',
      'Recommencer',
    ]);
  });
});
