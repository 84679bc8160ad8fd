// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POLL_MS } from '../../src/tracker/views.js';
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

const tick = async (times = 1) => {
  vi.advanceTimersByTime(POLL_MS * times);
  await settle();
};

const start = async (url = 'https://shop.example/', data: Record<string, string> = {}) => {
  const page = preparePage(url);
  await loadTag({ api, website: 'example.com', ...data });
  await settle();
  return page;
};

describe('multi-page sites', () => {
  it('counts the page once on load, and not again while nothing changes', async () => {
    const page = await start();
    await tick(20);
    expect(requested(page)).toHaveLength(1);
  });
});

describe('single-page apps', () => {
  it('counts pushState to a new path', async () => {
    const page = await start();
    history.pushState({}, '', '/pricing');
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(2);
  });

  it('counts replaceState to a new path', async () => {
    const page = await start();
    history.replaceState({}, '', '/signed-in');
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(2);
  });

  it('counts a back navigation (popstate)', async () => {
    const page = await start('https://shop.example/a');
    history.pushState({}, '', '/b');
    await tick();
    setUrl('https://shop.example/a');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(3);
  });

  it('counts the same path twice in a row once', async () => {
    const page = await start('https://shop.example/a');
    history.pushState({ step: 1 }, '', '/a');
    history.replaceState({ step: 2 }, '', '/a?tab=2');
    await tick(3);
    history.pushState({}, '', '/b');
    history.pushState({}, '', '/b');
    await tick(3);
    history.pushState({}, '', '/a');
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(3);
  });

  it('ignores hash changes unless data-hash is present', async () => {
    const page = await start();
    location.hash = '#/settings';
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(1);
  });

  it('counts hash changes with data-hash', async () => {
    const page = await start('https://shop.example/#/home', { hash: '' });
    location.hash = '#/settings';
    await tick();
    location.hash = '#/settings';
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(2);
  });
});

describe('page lifecycle', () => {
  it('counts a page restored from the back/forward cache', async () => {
    const page = await start();
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('pageshow'));
    await tick();
    expect(page.fetch).toHaveBeenCalledTimes(2);
  });

  it('waits until a prerendered page is shown', async () => {
    const page = preparePage();
    setProperty(document, 'prerendering', true);
    await loadTag({ api });
    await tick(5);
    expect(requested(page)).toHaveLength(0);
    setProperty(document, 'prerendering', false);
    document.dispatchEvent(new Event('prerenderingchange'));
    await tick();
    expect(requested(page)).toHaveLength(1);
  });
});
