// @vitest-environment happy-dom
// The consent checkbox in <sitebeam-chat>: rendered from the element's attributes, required before
// a message is sent, sent as JSON true, and shown again when the endpoint asks for it.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineChat } from '../../src/chat/index.js';

beforeAll(() => defineChat());

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  document.documentElement.lang = 'en';
});

/** GET answers one model, each POST the next reply; records the posted bodies. */
function endpoint(...replies: Array<[number, object]>) {
  const posted: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      if (init.method === 'GET') return Response.json({ status: 'ok', models: ['mock'] });
      posted.push(JSON.parse(init.body as string));
      const [status, body] = replies.shift() ?? [500, {}];
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return posted;
}

async function mount(attributes: string) {
  document.body.innerHTML = `<sitebeam-chat action="https://relay.example/chat" ${attributes}></sitebeam-chat>`;
  await vi.waitFor(() => expect(document.querySelector('textarea')).not.toBeNull());
  const form = document.querySelector('form') as HTMLFormElement;
  const input = document.querySelector('textarea') as HTMLTextAreaElement;
  const box = form.elements.namedItem('consent') as HTMLInputElement | null;
  const status = document.querySelector('[role=status]') as HTMLElement;
  const send = async (message: string) => {
    input.value = message;
    form.requestSubmit();
    for (let turn = 0; turn < 5; turn++) await new Promise((resume) => setImmediate(resume));
  };
  return { form, input, box, status, send };
}

const answered: [number, object] = [200, { status: 'ok', model: 'mock', response: ['an answer'] }];

describe('<sitebeam-chat consent-label consent-url>', () => {
  it('renders a required checkbox with the label and the policy link, before the buttons', async () => {
    endpoint();
    const { box, form } = await mount(
      'consent-label="I agree &lt;i&gt;now&lt;/i&gt;" consent-url="https://shop.example/privacy"',
    );
    expect(box?.type).toBe('checkbox');
    expect(box?.required).toBe(true);
    expect(box?.value).toBe('yes');
    expect(box?.closest('label')?.textContent?.trim()).toBe('I agree <i>now</i>');
    const link = form.querySelector('a') as HTMLAnchorElement;
    expect([link.href, link.target, link.rel]).toEqual([
      'https://shop.example/privacy',
      '_blank',
      'noopener',
    ]);
    expect(box?.compareDocumentPosition(form.querySelector('button') as Node)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('has no checkbox without a label', async () => {
    endpoint();
    expect((await mount('')).box).toBeNull();
  });

  it('refuses an unticked box without posting, then sends consent true, and keeps the box ticked', async () => {
    const posted = endpoint(answered, answered);
    const { box, input, status, send } = await mount('consent-label="I agree"');
    await send('Hello');
    expect(posted).toEqual([]);
    expect(status.textContent).toBe('Please tick the consent box.');
    expect(box?.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box);
    expect(input.value).toBe('Hello');
    (box as HTMLInputElement).checked = true;
    await send('Hello');
    await send('Again');
    expect(posted).toEqual([
      { message: 'Hello', consent: true },
      { message: 'Again', consent: true },
    ]);
    expect(box?.hasAttribute('aria-invalid')).toBe(false);
  });

  it('says to tick the box when the endpoint asks for consent, in French on a French page', async () => {
    document.documentElement.lang = 'fr';
    endpoint([400, { status: 'ko', i18n_code: 'invalid_field', field: 'consent', error: 'x' }]);
    const { status, input, send } = await mount('');
    await send('Bonjour');
    expect(status.textContent).toBe('Veuillez cocher la case de consentement.');
    expect(input.value).toBe('Bonjour');
  });
});
