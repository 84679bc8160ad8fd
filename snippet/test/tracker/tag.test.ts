// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  loadTag,
  preparePage,
  record,
  requested,
  resetPage,
  setProperty,
  settle,
} from './harness.js';

type Sitebeam = {
  track: (options?: { website?: string }) => Promise<unknown>;
  consent?: (given: unknown) => void;
  q?: unknown[];
  c?: unknown;
};
const page = window as unknown as { sitebeam?: Sitebeam };

afterEach(resetPage);

describe('the tag', () => {
  it('replays the calls queued before the file loaded, after its own first view', async () => {
    const browser = preparePage();
    // The documented stub, as a page would paste it before the tag.
    page.sitebeam = {
      q: [],
      track(options) {
        this.q?.push(options);
        return Promise.resolve(undefined);
      },
    };
    page.sitebeam.track({ website: 'queued.example' });
    page.sitebeam.track();
    await loadTag({ api, website: 'example.com' });
    await settle();
    expect(browser.fetch.mock.calls.map((call) => String(call[0]).split('/').pop())).toEqual([
      'example.com',
      'queued.example',
      'example.com',
    ]);
    expect(page.sitebeam.q).toBeUndefined();
  });

  it('installs window.sitebeam.track, resolving to the record', async () => {
    preparePage();
    await loadTag({ api, website: 'example.com' });
    await expect(page.sitebeam?.track()).resolves.toEqual(record('example.com'));
  });

  it('a second copy of the tag on the page counts nothing twice', async () => {
    const browser = preparePage();
    await loadTag({ api, website: 'example.com' });
    const first = page.sitebeam;
    await loadTag({ api, website: 'example.com' });
    await settle();
    expect(browser.fetch).toHaveBeenCalledTimes(1);
    expect(page.sitebeam).toBe(first);
  });

  it('adds no global but sitebeam and sets no cookie', async () => {
    preparePage();
    const before = new Set(Object.getOwnPropertyNames(window));
    await loadTag({ api, website: 'example.com' });
    await settle();
    const added = Object.getOwnPropertyNames(window).filter((name) => !before.has(name));
    expect(added).toEqual(['sitebeam']);
    expect(document.cookie).toBe('');
  });

  it('does nothing, silently, without data-api', async () => {
    const browser = preparePage();
    await loadTag({ website: 'example.com' });
    await settle();
    expect(requested(browser)).toEqual([]);
    expect(page.sitebeam).toBeUndefined();
    expect(browser.printed).toEqual([]);
  });

  it('does not throw when it cannot find its own tag (document.currentScript is null)', async () => {
    const browser = preparePage();
    setProperty(document, 'currentScript', null);
    vi.resetModules();
    await expect(import('../../src/tracker/script-tag.js')).resolves.toBeDefined();
    expect(requested(browser)).toEqual([]);
  });
});

describe('data-consent', () => {
  const stub = (): Sitebeam => ({
    q: [],
    track(options) {
      this.q?.push(options);
      return Promise.resolve(undefined);
    },
    consent(given) {
      this.c = given;
    },
  });

  it('sends nothing until consent(true), then the page shown once, and later paths', async () => {
    const browser = preparePage();
    await loadTag({ api, website: 'example.com', consent: '' });
    history.pushState({}, '', '/before');
    await page.sitebeam?.track();
    await settle();
    expect(browser.fetch).not.toHaveBeenCalled();
    page.sitebeam?.consent?.(true);
    page.sitebeam?.consent?.(true);
    history.pushState({}, '', '/after');
    await settle();
    expect(browser.sentFrom).toEqual(['https://shop.example/before', 'https://shop.example/after']);
  });

  it('only true gives consent; consent(false) stops every later send', async () => {
    const browser = preparePage();
    await loadTag({ api, website: 'example.com', consent: '' });
    page.sitebeam?.consent?.('yes');
    page.sitebeam?.consent?.(1);
    await settle();
    expect(browser.fetch).not.toHaveBeenCalled();
    page.sitebeam?.consent?.(true);
    page.sitebeam?.consent?.(false);
    history.pushState({}, '', '/later');
    await page.sitebeam?.track();
    await settle();
    expect(browser.sentFrom).toEqual(['https://shop.example/']);
  });

  /** The page after the stub queued `consent(given)` and the tag loaded with `attributes`. */
  async function loadAfterQueuedConsent(given: boolean, attributes: Record<string, string>) {
    const browser = preparePage();
    page.sitebeam = stub();
    page.sitebeam.consent?.(given);
    await loadTag({ api, website: 'example.com', ...attributes });
    await settle();
    return browser;
  }

  it('takes the consent queued by the stub before the file loaded', async () => {
    const browser = await loadAfterQueuedConsent(true, { consent: '' });
    expect(browser.sentFrom).toEqual(['https://shop.example/']);
  });

  it('without data-consent a queued withdrawal still holds', async () => {
    const browser = await loadAfterQueuedConsent(false, {});
    expect(browser.fetch).not.toHaveBeenCalled();
  });
});
