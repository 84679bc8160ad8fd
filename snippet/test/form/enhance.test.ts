// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enhanceForm } from '../../src/form/enhance.js';
import { contactFields } from '../../src/form/protocol.js';

const action = 'https://relay.example/contact';

function renderForm(attributes = '') {
  document.body.innerHTML = `
    <form data-sitebeam-form action="${action}" method="post" ${attributes}>
      <label for="n">Your name</label><input id="n" name="name">
      <label for="e">Your email</label><input id="e" name="email" type="email">
      <label for="s">Subject</label><input id="s" name="subject">
      <label for="m">Your message</label><textarea id="m" name="message"></textarea>
      <input type="hidden" name="_wpnonce" value="nonce-123">
      <button type="submit">Send</button>
    </form>`;
  const form = document.querySelector('form') as HTMLFormElement;
  enhanceForm(form);
  return form;
}

function control(form: HTMLFormElement, name: string) {
  return form.elements.namedItem(name) as HTMLInputElement;
}

function fill(form: HTMLFormElement, values: Partial<Record<string, string>>) {
  for (const [name, value] of Object.entries(values)) control(form, name).value = value ?? '';
}

const valid = { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello there' };

function status(form: HTMLFormElement) {
  return form.querySelector('[data-sitebeam-status]') as HTMLElement;
}

async function submit(form: HTMLFormElement, timeout = 1000) {
  form.requestSubmit();
  await vi.waitFor(() => expect(form.hasAttribute('aria-busy')).toBe(false), { timeout });
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** An endpoint that gives no ticket (GET 404) and answers every POST with `post()`. */
function endpoint(post: () => Promise<Response>) {
  return vi.fn((_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? post() : Promise.resolve(new Response('', { status: 404 })),
  );
}

function answer(status: number, body: unknown) {
  return endpoint(async () => new Response(JSON.stringify(body), { status }));
}

const posts = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.filter((call) => (call[1] as RequestInit | undefined)?.method === 'POST');

beforeEach(() => {
  document.documentElement.lang = 'en';
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('enhanceForm', () => {
  it('adds a polite live region and a hidden honeypot the site did not write', () => {
    const form = renderForm();
    expect(status(form).getAttribute('aria-live')).toBe('polite');
    expect(status(form).getAttribute('role')).toBe('status');
    const honeypot = control(form, contactFields.honeypot);
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(form.noValidate).toBe(true);
  });

  it('refuses an empty required field before any request, and focuses it', async () => {
    const fetchMock = answer(200, { status: 'ok' });
    vi.stubGlobal('fetch', fetchMock);
    const form = renderForm();
    fill(form, { ...valid, name: '   ' });
    form.requestSubmit();
    expect(posts(fetchMock)).toHaveLength(0);
    expect(status(form).textContent).toBe('Please fill in “Your name”.');
    expect(control(form, 'name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(control(form, 'name'));
    expect(form.dataset.state).toBe('error');
  });

  it('refuses a malformed email address and two addresses at once', () => {
    const fetchMock = answer(200, { status: 'ok' });
    vi.stubGlobal('fetch', fetchMock);
    const form = renderForm();
    for (const email of ['ada@example', 'ada@example.com, eve@example.com']) {
      fill(form, { ...valid, email });
      form.requestSubmit();
      expect(status(form).textContent).toBe('Please enter a valid email address.');
      expect(document.activeElement).toBe(control(form, 'email'));
    }
    expect(posts(fetchMock)).toHaveLength(0);
  });

  it('refuses a message over 10,000 characters', () => {
    vi.stubGlobal('fetch', answer(200, { status: 'ok' }));
    const form = renderForm();
    fill(form, { ...valid, message: 'x'.repeat(10_001) });
    form.requestSubmit();
    expect(status(form).textContent).toBe('“Your message” is too long.');
  });

  it('posts every named control as JSON, disabling the button meanwhile', async () => {
    let release: (response: Response) => void = () => {};
    const fetchMock = endpoint(() => new Promise<Response>((resolve) => (release = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const form = renderForm();
    fill(form, valid);
    form.requestSubmit();

    const button = form.querySelector('button') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(form.dataset.state).toBe('sending');
    expect(status(form).textContent).toBe('Sending…');
    await vi.waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    const [url, init] = posts(fetchMock)[0] as unknown as [string, RequestInit];
    expect(url).toBe(action);
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    const body = JSON.parse(init.body as string);
    expect(body).toMatchObject({ ...valid, _wpnonce: 'nonce-123', homepage: '' });

    release(new Response(JSON.stringify({ status: 'ok', message: 'Thanks' }), { status: 200 }));
    await vi.waitFor(() => expect(form.dataset.state).toBe('sent'));
    expect(button.disabled).toBe(false);
    expect(status(form).textContent).toBe('Thank you, your message was sent.');
    expect(control(form, 'message').value).toBe('');
  });

  it('shows a message kept for later (202, queued) as received, in the endpoint’s own words', async () => {
    const received = 'Thanks, we received your <b>message</b>.';
    vi.stubGlobal('fetch', answer(202, { status: 'ok', queued: true, message: received }));
    const form = renderForm('data-text-sent="Your message was sent!"');
    fill(form, valid);
    await submit(form);
    expect(form.dataset.state).toBe('sent');
    expect(status(form).textContent).toBe(received);
    expect(status(form).children).toHaveLength(0);
    expect(control(form, 'message').value).toBe('');
  });

  it('ignores a second submit while the first is on its way', async () => {
    const fetchMock = endpoint(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetchMock);
    const form = renderForm();
    fill(form, valid);
    form.requestSubmit();
    form.dispatchEvent(new Event('submit', { cancelable: true }));
    await vi.waitFor(() => expect(posts(fetchMock)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posts(fetchMock)).toHaveLength(1);
  });

  const failures: [string, () => unknown, string][] = [
    [
      'the network is down',
      () =>
        endpoint(async () => {
          throw new TypeError('Failed to fetch');
        }),
      'Not sent: you seem to be offline. Please try again.',
    ],
    [
      '429',
      () => answer(429, { status: 'ko', error: 'x', i18n_code: 'rate_limited' }),
      'Not sent: too many messages. Please try again later.',
    ],
    [
      'a 429 without a JSON body',
      () => endpoint(async () => new Response('slow down', { status: 429 })),
      'Not sent: too many messages. Please try again later.',
    ],
    [
      'server trouble (502)',
      () => answer(502, { status: 'ko', error: 'x', i18n_code: 'upstream_failed' }),
      'Not sent: the server had a problem. Please try again.',
    ],
    [
      'an HTML 500 page',
      () => endpoint(async () => new Response('<h1>oops</h1>', { status: 500 })),
      'Not sent: the server had a problem. Please try again.',
    ],
    [
      'an endpoint without configuration',
      () => answer(503, { status: 'ko', error: 'x', i18n_code: 'not_configured' }),
      'Not sent: this form is not set up yet. Please contact us another way.',
    ],
    [
      'a post judged automated',
      () => answer(400, { status: 'ko', error: 'x', i18n_code: 'spam_suspected' }),
      'Not sent: that was too fast. Please wait a few seconds and try again.',
    ],
  ];

  for (const [cause, fetchMock, shown] of failures) {
    it(`keeps every typed value and says what happened when ${cause}`, async () => {
      vi.stubGlobal('fetch', fetchMock());
      const form = renderForm();
      fill(form, valid);
      await submit(form);
      expect(form.dataset.state).toBe('error');
      expect(status(form).textContent).toBe(shown);
      for (const [name, value] of Object.entries(valid))
        expect(control(form, name).value).toBe(value);
      expect((form.querySelector('button') as HTMLButtonElement).disabled).toBe(false);
    });
  }

  it('names and focuses the field the endpoint refused', async () => {
    vi.stubGlobal(
      'fetch',
      answer(400, { status: 'ko', error: 'bad', i18n_code: 'invalid_field', field: 'email' }),
    );
    const form = renderForm();
    fill(form, valid);
    await submit(form);
    expect(status(form).textContent).toBe('Please check “Your email”.');
    expect(control(form, 'email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(control(form, 'email'));
    expect(control(form, 'email').value).toBe(valid.email);
  });

  it('sends again after a failure and clears the error marks', async () => {
    vi.stubGlobal(
      'fetch',
      answer(400, { status: 'ko', error: 'bad', i18n_code: 'invalid_field', field: 'name' }),
    );
    const form = renderForm();
    fill(form, valid);
    await submit(form);
    expect(control(form, 'name').getAttribute('aria-invalid')).toBe('true');

    vi.stubGlobal('fetch', answer(200, { status: 'ok', message: 'Thanks' }));
    await submit(form);
    expect(form.dataset.state).toBe('sent');
    expect(form.querySelector('[aria-invalid]')).toBeNull();
  });

  it('speaks French on a French page', () => {
    document.documentElement.lang = 'fr-CA';
    vi.stubGlobal('fetch', answer(200, { status: 'ok' }));
    const form = renderForm();
    fill(form, { ...valid, message: '' });
    form.requestSubmit();
    expect(status(form).textContent).toBe('Veuillez remplir « Your message ».');
  });

  it('lets the site override any text with a data-text-* attribute', async () => {
    vi.stubGlobal('fetch', answer(503, { status: 'ko', error: 'x', i18n_code: 'not_configured' }));
    const form = renderForm('data-text-not-configured="Please call us instead."');
    fill(form, valid);
    await submit(form);
    expect(status(form).textContent).toBe('Please call us instead.');
  });

  it('enhances a form only once', () => {
    const form = renderForm();
    enhanceForm(form);
    expect(form.querySelectorAll('[data-sitebeam-status]')).toHaveLength(1);
    expect(form.querySelectorAll(`[name="${contactFields.honeypot}"]`)).toHaveLength(1);
  });

  describe('the fill-time ticket', () => {
    const ticketing = (post: () => Promise<Response>) => {
      let issued = 0;
      return vi.fn((_url: string, init?: RequestInit) =>
        init?.method === 'POST'
          ? post()
          : Promise.resolve(Response.json({ status: 'ok', ticket: `t-${++issued}` })),
      );
    };

    it('is fetched from the action on the first focus, once, and posted with the form', async () => {
      const fetchMock = ticketing(async () => Response.json({ status: 'ok', message: 'Thanks' }));
      vi.stubGlobal('fetch', fetchMock);
      const form = renderForm();
      control(form, 'name').focus();
      control(form, 'email').focus();
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(fetchMock.mock.calls[0]?.[0]).toBe(action);
      await new Promise((resolve) => setTimeout(resolve, 20));
      vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000);
      fill(form, valid);
      await submit(form);
      const [, init] = posts(fetchMock)[0] as unknown as [string, RequestInit];
      expect(JSON.parse(init.body as string).ticket).toBe('t-1');
      expect(fetchMock).toHaveBeenCalledTimes(2);
      vi.restoreAllMocks();
    });

    it('is not posted before the minimum fill time since it arrived', async () => {
      const fetchMock = ticketing(async () => Response.json({ status: 'ok', message: 'Thanks' }));
      vi.stubGlobal('fetch', fetchMock);
      const form = renderForm();
      fill(form, valid);
      const before = Date.now();
      await submit(form, 5000);
      expect(Date.now() - before).toBeGreaterThanOrEqual(2900);
      expect(posts(fetchMock)).toHaveLength(1);
      expect(form.dataset.state).toBe('sent');
    }, 10_000);

    it('is fetched again after a refusal naming it', async () => {
      const fetchMock = ticketing(async () =>
        Response.json(
          { status: 'ko', error: 'x', i18n_code: 'spam_suspected', field: 'ticket' },
          { status: 400 },
        ),
      );
      vi.stubGlobal('fetch', fetchMock);
      const form = renderForm();
      control(form, 'name').focus();
      await new Promise((resolve) => setTimeout(resolve, 20));
      vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10_000);
      fill(form, valid);
      await submit(form);
      expect(status(form).textContent).toBe(
        'Not sent: that was too fast. Please wait a few seconds and try again.',
      );
      expect(fetchMock).toHaveBeenCalledTimes(3);
      const [, third] = fetchMock.mock.calls[2] as unknown as [string, RequestInit | undefined];
      expect(third).toBeUndefined();
      vi.restoreAllMocks();
    });
  });
});
