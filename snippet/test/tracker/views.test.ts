// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  loadTag,
  preparePage,
  requested,
  resetPage,
  setProperty,
  settle,
  setUrl,
} from './harness.js';

afterEach(resetPage);

const start = async (url = 'https://shop.example/', data: Record<string, string> = {}) => {
  const page = preparePage(url);
  await loadTag({ api, website: 'example.com', ...data });
  await settle();
  return page;
};

/** What a browser does on Back, or on a fragment navigation: the URL changes, then popstate. */
const popTo = (url: string) => {
  setUrl(url);
  window.dispatchEvent(new PopStateEvent('popstate'));
};

/** happy-dom has no PageTransitionEvent: an Event with the field a browser's would carry. */
const pageshow = (persisted: boolean) =>
  window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('multi-page sites', () => {
  it('counts the page once on load, and asks for no timer of any kind', async () => {
    const timers = (['setTimeout', 'setInterval', 'requestAnimationFrame'] as const).map((name) =>
      vi.spyOn(globalThis, name),
    );
    const page = preparePage();
    await loadTag({ api, website: 'example.com' });
    history.pushState({}, '', '/next');
    popTo('https://shop.example/');
    expect(timers.map((timer) => timer.mock.calls.length)).toEqual([0, 0, 0]);
    await settle();
    expect(page.sentFrom).toEqual([
      'https://shop.example/',
      'https://shop.example/next',
      'https://shop.example/',
    ]);
  });
});

describe('single-page apps', () => {
  it('counts pushState to a new path at once, sent from that URL', async () => {
    const page = await start();
    history.pushState({}, '', '/pricing?plan=pro');
    expect(page.sentFrom).toEqual([
      'https://shop.example/',
      'https://shop.example/pricing?plan=pro',
    ]);
  });

  it('counts replaceState to a new path', async () => {
    const page = await start();
    history.replaceState({}, '', '/signed-in');
    expect(page.sentFrom).toEqual(['https://shop.example/', 'https://shop.example/signed-in']);
  });

  it('a route shown 50 ms, another, then Back: one view each, in order, each from its URL', async () => {
    const page = await start('https://shop.example/a');
    history.pushState({}, '', '/b');
    await wait(50);
    history.pushState({}, '', '/c');
    await wait(50);
    popTo('https://shop.example/b');
    await settle();
    expect(page.sentFrom).toEqual([
      'https://shop.example/a',
      'https://shop.example/b',
      'https://shop.example/c',
      'https://shop.example/b',
    ]);
  });

  it('counts a push then a replace of the same path, the same path twice, or a query change once', async () => {
    const page = await start('https://shop.example/a');
    history.pushState({ step: 1 }, '', '/a');
    history.replaceState({ step: 2 }, '', '/a?tab=2');
    history.pushState({}, '', '/b');
    history.replaceState({ scroll: 10 }, '', '/b');
    history.pushState({}, '', '/b');
    history.pushState({}, '', '/a');
    expect(page.sentFrom).toEqual([
      'https://shop.example/a',
      'https://shop.example/b',
      'https://shop.example/a',
    ]);
  });

  it('ignores hash changes unless data-hash is present', async () => {
    const page = await start();
    popTo('https://shop.example/#/settings');
    expect(page.fetch).toHaveBeenCalledTimes(1);
  });

  it('counts hash changes with data-hash, each from its own URL', async () => {
    const page = await start('https://shop.example/#/home', { hash: '' });
    popTo('https://shop.example/#/settings');
    popTo('https://shop.example/#/settings');
    history.pushState({}, '', '#/cart');
    expect(page.sentFrom).toEqual([
      'https://shop.example/#/home',
      'https://shop.example/#/settings',
      'https://shop.example/#/cart',
    ]);
  });
});

describe("the page's own history methods", () => {
  it('keep their this, arguments, state object and return value, under a framework wrapping them first', async () => {
    const seen: unknown[] = [];
    const native = history.pushState;
    history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
      seen.push(this, ...args);
      native.apply(this, args);
      return 'from the framework' as unknown as undefined;
    };
    const page = await start();
    const state = { id: 7 };
    expect(history.pushState(state, '', '/item/7')).toBe('from the framework');
    expect(seen).toEqual([history, state, '', '/item/7']);
    expect(history.state).toBe(state);
    expect(location.pathname).toBe('/item/7');
    expect(page.sentFrom).toEqual(['https://shop.example/', 'https://shop.example/item/7']);
  });

  it('keep counting when a framework wraps them after the tag', async () => {
    const page = await start();
    const tracked = history.replaceState;
    const seen: unknown[] = [];
    history.replaceState = function (this: History, ...args: Parameters<History['replaceState']>) {
      seen.push(args[2]);
      return tracked.apply(this, args);
    };
    expect(history.replaceState({ a: 1 }, '', '/settings')).toBeUndefined();
    expect(history.state).toEqual({ a: 1 });
    expect(seen).toEqual(['/settings']);
    expect(page.sentFrom).toEqual(['https://shop.example/', 'https://shop.example/settings']);
  });
});

describe('page lifecycle', () => {
  it('counts a page restored from the back/forward cache, not its first pageshow', async () => {
    const page = await start();
    pageshow(false);
    window.dispatchEvent(new Event('pagehide'));
    pageshow(true);
    expect(page.sentFrom).toEqual(['https://shop.example/', 'https://shop.example/']);
  });

  it('waits until a prerendered page is shown', async () => {
    const page = preparePage();
    setProperty(document, 'prerendering', true);
    await loadTag({ api });
    history.replaceState({}, '', '/landing');
    await settle();
    expect(requested(page)).toHaveLength(0);
    setProperty(document, 'prerendering', false);
    document.dispatchEvent(new Event('prerenderingchange'));
    expect(page.sentFrom).toEqual(['https://shop.example/landing']);
  });
});
