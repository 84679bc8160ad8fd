// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineContactForm } from '../../src/form/element.js';

beforeAll(() => defineContactForm());

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  document.documentElement.lang = 'en';
});

/** Elements render once their children are parsed: a microtask after insertion here. */
async function mount(html: string) {
  document.body.innerHTML = html;
  await Promise.resolve();
  return document.body.querySelector('sitebeam-contact-form form') as HTMLFormElement;
}

describe('<sitebeam-contact-form>', () => {
  it('renders a labelled field for every protocol field, a button and a live region', async () => {
    const form = await mount('<sitebeam-contact-form action="https://relay.example/contact">');
    expect(form.getAttribute('action')).toBe('https://relay.example/contact');
    expect(form.method).toBe('post');
    for (const name of ['name', 'email', 'subject', 'message']) {
      const control = form.elements.namedItem(name) as HTMLInputElement;
      expect(control.labels?.[0]?.textContent, name).toBeTruthy();
    }
    const email = form.elements.namedItem('email') as HTMLInputElement;
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect((form.elements.namedItem('subject') as HTMLInputElement).required).toBe(false);
    expect((form.elements.namedItem('message') as HTMLTextAreaElement).tagName).toBe('TEXTAREA');
    expect((form.elements.namedItem('message') as HTMLTextAreaElement).maxLength).toBe(10_000);
    expect(form.querySelector('button')?.textContent).toBe('Send');
    expect(form.querySelector('[aria-live="polite"]')).not.toBeNull();
  });

  it('gives each instance its own ids', async () => {
    document.body.innerHTML =
      '<sitebeam-contact-form action="/a"></sitebeam-contact-form><sitebeam-contact-form action="/b"></sitebeam-contact-form>';
    await Promise.resolve();
    const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses French labels on a French page and lets attributes override them', async () => {
    document.documentElement.lang = 'fr';
    const form = await mount(
      '<sitebeam-contact-form action="/contact" data-text-send="Écrivez-nous"></sitebeam-contact-form>',
    );
    expect((form.elements.namedItem('name') as HTMLInputElement).labels?.[0]?.textContent).toBe(
      'Nom',
    );
    expect(form.querySelector('button')?.textContent).toBe('Écrivez-nous');
  });

  it('keeps inputs the page put inside (a CMS nonce) and posts them', async () => {
    const fetchMock = vi.fn(async () => new Response('{"status":"ok","message":"ok"}'));
    vi.stubGlobal('fetch', fetchMock);
    const form = await mount(
      '<sitebeam-contact-form action="/contact"><input type="hidden" name="form_token" value="t-1"></sitebeam-contact-form>',
    );
    for (const [name, value] of Object.entries({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hi',
    })) {
      (form.elements.namedItem(name) as HTMLInputElement).value = value;
    }
    form.requestSubmit();
    // First the GET of a fill-time ticket (this endpoint gives none), then the POST.
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const init = (fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(init.body as string).form_token).toBe('t-1');
  });

  it('adopts its style sheet once (no inline <style>, which a strict CSP blocks), themable through --sitebeam-* properties', async () => {
    document.body.innerHTML =
      '<sitebeam-contact-form action="/a"></sitebeam-contact-form><sitebeam-contact-form action="/b"></sitebeam-contact-form>';
    await Promise.resolve();
    expect(document.querySelectorAll('style')).toHaveLength(0);
    const sheets = document.adoptedStyleSheets;
    expect(sheets).toHaveLength(1);
    const text = Array.from(sheets[0]?.cssRules ?? [], (rule) => rule.cssText).join('\n');
    expect(text).toContain('var(--sitebeam-accent');
    expect(text).toMatch(/font:\s*inherit/);
  });
});
