// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import {
  api,
  loadTag,
  preparePage,
  requested,
  resetPage,
  setCookie,
  setProperty,
  settle,
  throwOnRead,
} from './harness.js';

type Sitebeam = { track: () => Promise<unknown> };
const sitebeam = () => (window as unknown as { sitebeam: Sitebeam }).sitebeam;

afterEach(resetPage);

/** Loads the tag on `url` after `before()` and reports how many requests the first view made. */
const requestsFor = async (
  url: string,
  data: Record<string, string>,
  before: () => void = () => {},
) => {
  const page = preparePage(url);
  before();
  await loadTag({ api, ...data });
  await settle();
  return { count: requested(page).length, page };
};

describe('privacy signals', () => {
  const dnt = () => setProperty(navigator, 'doNotTrack', '1');
  const gpc = () => setProperty(navigator, 'globalPrivacyControl', true);

  it.each([
    ['Do Not Track', dnt],
    ['Global Privacy Control', gpc],
  ])('%s: nothing is sent, and track() resolves to undefined', async (_label, signal) => {
    const { count } = await requestsFor('https://shop.example/', {}, signal);
    expect(count).toBe(0);
    expect(await sitebeam().track()).toBeUndefined();
  });

  it.each([
    ['Do Not Track', dnt],
    ['Global Privacy Control', gpc],
  ])('%s is ignored with data-respect-dnt="false"', async (_label, signal) => {
    const { count } = await requestsFor(
      'https://shop.example/',
      { 'respect-dnt': 'false' },
      signal,
    );
    expect(count).toBe(1);
  });

  it('a DNT value other than "1" does not stop tracking', async () => {
    const { count } = await requestsFor('https://shop.example/', {}, () =>
      setProperty(navigator, 'doNotTrack', '0'),
    );
    expect(count).toBe(1);
  });
});

describe('automation', () => {
  const automated = () => setProperty(navigator, 'webdriver', true);

  it('skips a browser driven by automation', async () => {
    expect((await requestsFor('https://shop.example/', {}, automated)).count).toBe(0);
  });

  it('counts it with data-track-automation', async () => {
    const { count } = await requestsFor(
      'https://shop.example/',
      { 'track-automation': '' },
      automated,
    );
    expect(count).toBe(1);
  });
});

describe('local pages', () => {
  it.each([
    'http://localhost:3000/',
    'http://127.0.0.1/',
    'http://127.12.0.3:8080/a',
    'http://[::1]:4000/',
    'file:///home/me/site/index.html',
  ])('skips %s', async (url) => {
    expect((await requestsFor(url, {})).count).toBe(0);
  });

  it.each(['http://localhost:3000/', 'file:///home/me/site/index.html'])(
    'counts %s with data-track-localhost',
    async (url) => {
      expect((await requestsFor(url, { 'track-localhost': '' })).count).toBe(1);
    },
  );

  it.each(['https://localhost.shop.example/', 'https://127.shop.example/'])(
    'does not mistake %s for a local page',
    async (url) => {
      expect((await requestsFor(url, {})).count).toBe(1);
    },
  );
});

describe('self-exclusion', () => {
  const cookie = (value: string) => () => setCookie(value);

  it.each(['sitebeam_ignore=true', 'sitebeam_ignore=true; path=/; max-age=34560000'])(
    'skips a visitor who set the cookie %j',
    async (value) => {
      setCookie('theme=dark; path=/');
      const { count } = await requestsFor('https://shop.example/', {}, cookie(value));
      setCookie('theme=; max-age=0; path=/');
      expect(count).toBe(0);
    },
  );

  it.each(['sitebeam_ignore=false', 'sitebeam_ignore=trueish', 'my_sitebeam_ignore=true'])(
    'counts a visitor whose cookie is %j',
    async (value) => {
      const name = value.split('=')[0];
      const { count } = await requestsFor('https://shop.example/', {}, cookie(value));
      setCookie(`${name}=; max-age=0`);
      expect(count).toBe(1);
    },
  );

  it('counts when reading the cookie throws (a sandboxed frame)', async () => {
    const { count } = await requestsFor('https://shop.example/', {}, () =>
      throwOnRead(document, 'cookie'),
    );
    expect(count).toBe(1);
  });
});

describe('data-exclude', () => {
  it.each([
    ['/admin', '/admin', true],
    ['/admin', '/admin/users', false],
    ['/admin*', '/admin/users', true],
    ['/admin/*', '/admin', false],
    ['/blog/*/edit', '/blog/2024/first/edit', true],
    ['/blog/*/edit', '/blog/2024/first', false],
    ['*.pdf', '/files/report.pdf', true],
    ['/a.b', '/aXb', false],
    ['/c++', '/c++', true],
    ['/(draft)', '/(draft)', true],
    ['/x$', '/x$', true],
    ['/shop, /cart*,/checkout', '/cart/items', true],
    ['/shop, /cart*,/checkout', '/checkout', true],
    ['/shop, /cart*,/checkout', '/shop', true],
    ['/shop, /cart*,/checkout', '/shops', false],
  ])('pattern %j on %s excludes: %s', async (patterns, path, excluded) => {
    const { count } = await requestsFor(`https://shop.example${path}`, { exclude: patterns });
    expect(count).toBe(excluded ? 0 : 1);
  });

  it('matches the hash too in hash mode', async () => {
    const { count } = await requestsFor('https://shop.example/#/private/area', {
      exclude: '/#/private*',
      hash: '',
    });
    expect(count).toBe(0);
  });
});

describe('data-debug', () => {
  it.each([
    ['http://localhost/', {}, 'trackLocalhost'],
    ['https://shop.example/admin', { exclude: '/admin' }, 'exclude'],
  ])('prints why %s was skipped', async (url, data, reason) => {
    const { page } = await requestsFor(url, { debug: '', ...data });
    expect(page.printed).toEqual([['sitebeam skip', reason]]);
  });

  it('names each rule after the option that overrides it', async () => {
    const { page } = await requestsFor('https://shop.example/', { debug: '' }, () => {
      setProperty(navigator, 'webdriver', true);
      setProperty(navigator, 'doNotTrack', '1');
    });
    await sitebeam().track();
    setProperty(navigator, 'doNotTrack', null);
    await sitebeam().track();
    setProperty(navigator, 'webdriver', false);
    setCookie('sitebeam_ignore=true');
    await sitebeam().track();
    expect(page.printed.map((line) => line[1])).toEqual([
      'respectDnt',
      'respectDnt',
      'trackAutomation',
      'sitebeam_ignore',
    ]);
  });
});
