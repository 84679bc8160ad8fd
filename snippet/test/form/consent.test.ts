// @vitest-environment happy-dom
// The consent checkbox in the contact form: rendered by <sitebeam-contact-form> from its
// attributes, and, rendered by us or by a CMS, checked and sent by the enhancer.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineContactForm } from '../../src/form/element.js';
import { enhanceForm } from '../../src/form/enhance.js';

beforeAll(() => defineContactForm());

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  document.documentElement.lang = 'en';
});

const label = 'I agree that my message is kept <b>to answer me</b>';

async function mount(attributes: string) {
  document.body.innerHTML = `<sitebeam-contact-form action="https://relay.example/contact" ${attributes}></sitebeam-contact-form>`;
  await Promise.resolve();
  return document.querySelector('form') as HTMLFormElement;
}

/** An endpoint without tickets (GET 404) answering each POST with the next reply; records the bodies. */
function endpoint(...replies: Array<[number, object]>) {
  const posted: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method !== 'POST') return new Response('', { status: 404 });
      posted.push(JSON.parse(init.body as string));
      const [status, body] = replies.shift() ?? [500, {}];
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return posted;
}

function fill(form: HTMLFormElement) {
  const values = { name: 'Ada', email: 'ada@example.com', message: 'Keep this text' };
  for (const [name, value] of Object.entries(values)) {
    (form.elements.namedItem(name) as HTMLInputElement).value = value;
  }
}

async function submit(form: HTMLFormElement) {
  form.requestSubmit();
  await vi.waitFor(() => expect(form.hasAttribute('aria-busy')).toBe(false));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

const box = (form: HTMLFormElement) => form.elements.namedItem('consent') as HTMLInputElement;
const status = (form: HTMLFormElement) => form.querySelector('[role=status]')?.textContent;

describe('<sitebeam-contact-form consent-label consent-url>', () => {
  it('renders a required checkbox with the label as text and the policy in a new tab, before the button', async () => {
    const form = await mount(
      `consent-label="${label.replace(/</g, '&lt;')}" consent-url="https://shop.example/privacy"`,
    );
    const consent = box(form);
    expect(consent.type).toBe('checkbox');
    expect(consent.value).toBe('yes');
    expect(consent.required).toBe(true);
    expect(consent.closest('label')?.textContent?.trim()).toBe(label);
    expect(form.querySelector('b')).toBeNull();
    const link = consent.closest('div')?.querySelector('a') as HTMLAnchorElement;
    expect(link.href).toBe('https://shop.example/privacy');
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener');
    expect(link.textContent).toBe('Privacy policy');
    expect(consent.compareDocumentPosition(form.querySelector('button') as Node)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('renders no checkbox without a label, and no link to an address that is not a web page', async () => {
    expect(box(await mount('consent-url="https://shop.example/privacy"'))).toBeNull();
    const form = await mount('consent-label="I agree" consent-url="javascript:alert(1)"');
    expect(box(form)).not.toBeNull();
    expect(form.querySelector('a')).toBeNull();
  });

  it('names the policy in French on a French page', async () => {
    document.documentElement.lang = 'fr';
    const form = await mount(
      'consent-label="J’accepte" consent-url="https://shop.example/vie-privee"',
    );
    expect(form.querySelector('a')?.textContent).toBe('Politique de confidentialité');
  });

  it('refuses an unticked box before any request: marked, focused, the text kept', async () => {
    const posted = endpoint([200, { status: 'ok' }]);
    const form = await mount('consent-label="I agree"');
    fill(form);
    await submit(form);
    expect(posted).toEqual([]);
    expect(box(form).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box(form));
    expect(status(form)).toBe('Please tick the consent box.');
    expect((form.elements.namedItem('message') as HTMLTextAreaElement).value).toBe(
      'Keep this text',
    );
  });

  it('sends a ticked box as JSON true', async () => {
    const posted = endpoint([200, { status: 'ok' }]);
    const form = await mount('consent-label="I agree"');
    fill(form);
    box(form).checked = true;
    await submit(form);
    expect(posted[0]?.consent).toBe(true);
    expect(form.dataset.state).toBe('sent');
  });
});

describe('enhanceForm with a CMS-rendered consent checkbox', () => {
  function cmsForm(checkbox: string) {
    document.body.innerHTML = `<form action="https://cms.example/contact" method="post">
      <label for="n">Name</label><input id="n" name="name">
      <label for="e">Email</label><input id="e" name="email">
      <label for="m">Message</label><textarea id="m" name="message"></textarea>
      ${checkbox}
      <button>Send</button></form>`;
    const form = document.querySelector('form') as HTMLFormElement;
    enhanceForm(form);
    fill(form);
    return form;
  }

  it('sends a ticked box as JSON true whatever its value', async () => {
    const posted = endpoint([200, { status: 'ok' }]);
    const form = cmsForm(
      '<label><input type="checkbox" name="consent" value="1" required checked> I agree</label>',
    );
    await submit(form);
    expect(posted[0]?.consent).toBe(true);
  });

  it('marks and focuses the box when the endpoint refuses consent, keeping the text', async () => {
    const posted = endpoint([
      400,
      { status: 'ko', i18n_code: 'invalid_field', field: 'consent', error: 'Please tick' },
    ]);
    // Without `required` the widget lets the endpoint decide.
    const form = cmsForm(
      '<label><input type="checkbox" name="consent" value="yes"> I agree</label>',
    );
    await submit(form);
    expect(posted).toHaveLength(1);
    expect(posted[0]).not.toHaveProperty('consent');
    expect(box(form).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box(form));
    expect(status(form)).toBe('Please tick the consent box.');
    expect((form.elements.namedItem('message') as HTMLTextAreaElement).value).toBe(
      'Keep this text',
    );
  });
});
