// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromOptions } from '../../src/tracker/config.js';
import { api, preparePage, record, requested, resetPage, settle, setUrl } from './harness.js';

type Esm = typeof import('../../src/tracker/index.js');

/** A fresh copy of the ESM build, as a bundler would give each page. */
const load = async (): Promise<Esm> => {
  vi.resetModules();
  return import('../../src/tracker/index.js');
};

afterEach(resetPage);

describe("import { init, track } from 'sitebeam'", () => {
  it('init() counts the first view and each later path, from its URL; track() resolves to the record', async () => {
    const page = preparePage();
    const { init, track } = await load();
    init({ api, website: 'example.com' });
    await settle();
    history.pushState({}, '', '/next');
    setUrl('https://shop.example/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(page.sentFrom).toEqual([
      'https://shop.example/',
      'https://shop.example/next',
      'https://shop.example/',
    ]);
    await expect(track({ website: 'other.example' })).resolves.toEqual(record('other.example'));
  });

  it('with autoPageViews: false only track() sends', async () => {
    const page = preparePage();
    const { init, track } = await load();
    init({ api, website: 'example.com', autoPageViews: false });
    history.pushState({}, '', '/next');
    await settle();
    expect(page.fetch).not.toHaveBeenCalled();
    await track();
    expect(page.fetch).toHaveBeenCalledTimes(1);
  });

  it('holds track() calls made before init() and sends them once it runs', async () => {
    const page = preparePage();
    const { init, track } = await load();
    const early = track({ website: 'early.example' });
    await settle();
    expect(page.fetch).not.toHaveBeenCalled();
    init({ api, website: 'example.com', autoPageViews: false });
    await expect(early).resolves.toEqual(record('early.example'));
  });

  it('ignores a second init()', async () => {
    const page = preparePage();
    const { init } = await load();
    init({ api, website: 'first.example' });
    init({ api, website: 'second.example' });
    await settle();
    expect(requested(page)).toEqual([`${api}/v1/tracker/json/first.example`]);
  });

  it('takes the same switches as the tag', async () => {
    const page = preparePage('http://localhost:5173/admin/users');
    const { init, track } = await load();
    init({
      api,
      trackLocalhost: true,
      exclude: ['/admin/*', '/private'],
      referrerPolicy: 'unsafe-url',
      keepQuery: ['tab'],
      autoPageViews: false,
    });
    await track();
    expect(page.fetch).not.toHaveBeenCalled();
    history.pushState({}, '', '/shop?tab=2&session=S');
    await track();
    expect(page.fetch.mock.calls[0]).toEqual([
      `${api}/v1/tracker/json/localhost`,
      {
        keepalive: true,
        credentials: 'omit',
        referrer: 'http://localhost:5173/shop?tab=2',
        referrerPolicy: 'unsafe-url',
      },
    ]);
  });

  it('maps each option onto the data-* attribute it stands for', () => {
    expect(
      fromOptions({
        api,
        website: 'w',
        referrerPolicy: 'origin',
        keepQuery: ['ref', 'lang'],
        hash: true,
        respectDnt: false,
        trackAutomation: true,
        trackLocalhost: true,
        exclude: ['/a', '/b*'],
        debug: true,
      }),
    ).toEqual({
      api,
      website: 'w',
      referrerPolicy: 'origin',
      keepQuery: 'ref,lang',
      hash: '',
      respectDnt: 'false',
      trackAutomation: '',
      trackLocalhost: '',
      exclude: '/a,/b*',
      debug: '',
    });
    expect(
      fromOptions({ api, hash: false, respectDnt: true, trackAutomation: false, debug: false }),
    ).toEqual({ api });
  });
});
