// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../src/client/contract.js';
import { TRACKER_IMG_PATH, TRACKER_JSON_PATH } from '../../src/tracker/send.js';
import { api, loadTag, preparePage, record, requested, resetPage, settle } from './harness.js';

type Sitebeam = { track: (options?: { website?: string }) => Promise<unknown> };
const sitebeam = () => (window as unknown as { sitebeam: Sitebeam }).sitebeam;

afterEach(resetPage);

describe('the JSON send', () => {
  it('asks {api}/v1/tracker/json/{website} once, keepalive, without credentials, page URL as referrer', async () => {
    const page = preparePage('https://shop.example/pricing?utm_source=news&plan=pro#faq');
    await loadTag({ api, website: 'example.com' });
    await settle();
    expect(page.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = page.fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`${api}/v1/tracker/json/example.com`);
    expect(init).toEqual({
      keepalive: true,
      credentials: 'omit',
      referrer: 'https://shop.example/pricing?utm_source=news',
      referrerPolicy: 'no-referrer-when-downgrade',
    });
    expect(init.method ?? 'GET').toBe('GET');
    expect(init.headers).toBeUndefined();
    expect(page.pixels).toHaveLength(0);
  });

  it('uses data-referrer-policy for the request', async () => {
    const page = preparePage();
    await loadTag({ api, 'referrer-policy': 'unsafe-url' });
    await settle();
    expect(page.fetch.mock.calls[0]?.[1]).toMatchObject({ referrerPolicy: 'unsafe-url' });
  });

  it('tolerates a trailing slash on data-api and defaults the website to location.hostname', async () => {
    const page = preparePage('https://www.shop.example/');
    await loadTag({ api: `${api}/` });
    await settle();
    expect(requested(page)).toEqual([`${api}/v1/tracker/json/www.shop.example`]);
  });

  it('resolves track() to the record and dispatches sitebeam:track with it', async () => {
    const page = preparePage();
    await loadTag({ api, website: 'example.com' });
    const result = await sitebeam().track({ website: 'other.example' });
    expect(result).toEqual(record('other.example'));
    await settle();
    expect(page.events.map((event) => event.detail.website)).toEqual([
      'example.com',
      'other.example',
    ]);
    expect(page.events[1]?.detail).toEqual(result);
  });

  it.each([
    ['a space', 'my site', 'my%20site'],
    ['unicode', 'café.例え.jp', 'caf%C3%A9.%E4%BE%8B%E3%81%88.jp'],
    ['reserved characters', 'a?b#c&d=e%f', 'a%3Fb%23c%26d%3De%25f'],
  ])('percent-encodes a website name with %s', async (_label, website, encoded) => {
    const page = preparePage('https://shop.example/', 503);
    await loadTag({ api, website });
    await settle();
    expect(requested(page)).toEqual([`${api}/v1/tracker/json/${encoded}`]);
  });

  it.each([
    ['a slash', 'example.com/shop'],
    ['a dot', '.'],
    ['two dots', '..'],
  ])(
    'sends nothing for a website name with %s, which the path cannot carry, saying so with data-debug',
    async (_label, website) => {
      const page = preparePage('https://shop.example/', 'ok');
      await loadTag({ api, website, debug: '' });
      await settle();
      expect(requested(page)).toEqual([]);
      expect(page.printed).toEqual([['sitebeam no record', website]]);
    },
  );

  it('spells the paths exactly as the contract module does', async () => {
    const page = preparePage('https://shop.example/', 503);
    await loadTag({ api, website: 'a b?ü' });
    await settle();
    expect(TRACKER_JSON_PATH).toBe(paths.trackerJson(''));
    expect(TRACKER_IMG_PATH).toBe(paths.trackerImg(''));
    expect(requested(page)).toEqual([api + paths.trackerJson('a b?ü')]);
  });
});

describe('the page URL reported as referrer', () => {
  const referrerOf = async (url: string, attributes: Record<string, string> = {}) => {
    const page = preparePage(url);
    await loadTag({ api, ...attributes });
    await settle();
    return (page.fetch.mock.calls[0]?.[1] as RequestInit | undefined)?.referrer;
  };

  it.each([
    [
      'drops a secret and an e-mail',
      '/account/reset-password?token=SECRET&email=v%40x.example',
      {},
      '/account/reset-password',
    ],
    [
      'keeps the five campaign parameters, in order',
      '/?a=1&utm_source=s&utm_medium=m&utm_campaign=c&utm_term=t&utm_content=n&utm_id=9',
      {},
      '/?utm_source=s&utm_medium=m&utm_campaign=c&utm_term=t&utm_content=n',
    ],
    ['never the fragment', '/docs?utm_term=x#token=SECRET', {}, '/docs?utm_term=x'],
    [
      'keeps the listed parameters only',
      '/p?ref=home&lang=fr&utm_source=s&token=T',
      { 'keep-query': 'ref, lang' },
      '/p?ref=home&lang=fr',
    ],
    [
      'keeps everything but the fragment with *',
      '/p?token=T&x#y',
      { 'keep-query': '*' },
      '/p?token=T&x',
    ],
    ['keeps nothing with an empty list', '/p?utm_source=s', { 'keep-query': '' }, '/p'],
    ['matches names exactly', '/p?reference=1&xref=2&ref', { 'keep-query': 'ref' }, '/p?ref'],
  ])('%s', async (_label, path, attributes, expected) => {
    expect(await referrerOf(`https://shop.example${path}`, attributes)).toBe(
      `https://shop.example${expected}`,
    );
  });
});

describe('no second view: nothing follows a failed fetch', () => {
  it.each([
    // Without CORS the request reached the server and the browser hides the answer: a pixel would count it twice.
    ['fetch rejects', 'reject' as const],
    ['the API answers 503', 503],
    ['the API answers 404', 404],
  ])('asks no pixel when %s, and says "no record" with data-debug', async (_label, answer) => {
    const page = preparePage('https://shop.example/', answer);
    await loadTag({ api, website: 'example.com', debug: '' });
    await settle();
    expect(requested(page)).toEqual([`${api}/v1/tracker/json/example.com`]);
    expect(page.events).toHaveLength(0);
    expect(page.printed).toContainEqual(['sitebeam no record', 'example.com']);
  });

  it('resolves track() to undefined when no record came back', async () => {
    preparePage('https://shop.example/', 503);
    await loadTag({ api });
    expect(await sitebeam().track()).toBeUndefined();
  });

  it('asks no pixel even in a browser without fetch: the tag says no record came back', async () => {
    const page = preparePage();
    delete (globalThis as { fetch?: unknown }).fetch;
    await loadTag({ api, website: 'example.com', debug: '' });
    expect(await sitebeam().track()).toBeUndefined();
    expect(page.pixels).toHaveLength(0);
    expect(page.printed).toContainEqual(['sitebeam no record', 'example.com']);
  });

  it('asks no pixel when a 2xx body is not JSON, and resolves to undefined', async () => {
    const page = preparePage('https://shop.example/', 'not-json');
    await loadTag({ api, website: 'example.com' });
    expect(await sitebeam().track()).toBeUndefined();
    expect(page.pixels).toHaveLength(0);
  });
});

/** What Chromium fires on the document when a policy blocks a request: a task after fetch rejected. */
const violation = (blockedURI: string, disposition = 'enforce') =>
  document.dispatchEvent(
    Object.assign(new Event('securitypolicyviolation', { bubbles: true }), {
      blockedURI,
      disposition,
      effectiveDirective: 'connect-src',
    }),
  );

describe("the pixel, where the page's policy blocks fetch to the instance", () => {
  const json = `${api}/v1/tracker/json/example.com`;
  const img = `${api}/v1/tracker/img/example.com`;

  it('sends the blocked view by the pixel once, origin only, without cookies, and says so', async () => {
    const page = preparePage('https://shop.example/pricing?utm_source=news', 'reject');
    await loadTag({ api, website: 'example.com', debug: '' });
    await settle();
    expect(page.pixels).toHaveLength(0);
    violation(json);
    expect(requested(page)).toEqual([json, `${img}?0`]);
    expect(page.pixels[0]?.referrerPolicy).toBe('origin');
    expect(page.pixels[0]?.crossOrigin).toBe('');
    expect(page.printed).toEqual([
      ['sitebeam no record', 'example.com'],
      ['sitebeam pixel', `${img}?0`],
    ]);
  });

  it('sends every later view straight by the pixel', async () => {
    const page = preparePage('https://shop.example/', 'reject');
    await loadTag({ api, website: 'example.com' });
    await settle();
    violation(json);
    history.pushState(null, '', '/next');
    history.replaceState(null, '', '/last');
    expect(await sitebeam().track({ website: 'other.example' })).toBeUndefined();
    expect(page.fetch).toHaveBeenCalledTimes(1);
    // Numbered: a document reuses an image it has for the same URL without asking again.
    expect(page.pixels.map((pixel) => pixel.src)).toEqual([
      `${img}?0`,
      `${img}?1`,
      `${img}?2`,
      `${api}/v1/tracker/img/other.example?3`,
    ]);
  });

  it('sends each of two views blocked at once by the pixel once', async () => {
    const page = preparePage('https://shop.example/', 'reject');
    await loadTag({ api, website: 'example.com' });
    const other = sitebeam().track({ website: 'other.example' });
    await settle();
    violation(json);
    violation(`${api}/v1/tracker/json/other.example`);
    expect(await other).toBeUndefined();
    expect(page.pixels.map((pixel) => pixel.src)).toEqual([
      `${img}?0`,
      `${api}/v1/tracker/img/other.example?1`,
    ]);
  });

  it.each([
    ['a report-only policy', json, 'report'],
    ['another instance', 'https://other.instance.example/v1/tracker/json/example.com', 'enforce'],
    ['another request', `${api}/v1/other`, 'enforce'],
  ])('asks no pixel on the report of %s', async (_label, blockedURI, disposition) => {
    const page = preparePage('https://shop.example/', 'reject');
    await loadTag({ api, website: 'example.com' });
    await settle();
    violation(blockedURI, disposition);
    await sitebeam().track();
    expect(requested(page)).toEqual([json, json]);
  });

  it('asks no pixel on a report after a fetch that did not fail', async () => {
    const page = preparePage('https://shop.example/', 503);
    await loadTag({ api, website: 'example.com' });
    await settle();
    violation(json);
    expect(requested(page)).toEqual([json]);
  });

  it('reports the page URL by the pixel only when the site keeps every parameter', async () => {
    const page = preparePage('https://shop.example/', 'reject');
    await loadTag({
      api,
      website: 'example.com',
      'keep-query': '*',
      'referrer-policy': 'unsafe-url',
    });
    await settle();
    violation(json);
    expect(page.pixels[0]?.referrerPolicy).toBe('unsafe-url');
  });
});

describe('never throws into the page', () => {
  it('resolves to undefined, silently, even for a website name that cannot be encoded', async () => {
    const page = preparePage();
    await loadTag({ api });
    await expect(sitebeam().track({ website: '\uD800' })).resolves.toBeUndefined();
    expect(page.printed).toEqual([]);
  });

  it.each([
    ['a send', 'https://shop.example/', 'ok' as const, 2],
    ['a failed send', 'https://shop.example/', 503, 2],
    ['a skip', 'http://localhost:8080/', 503, 0],
  ])('prints nothing on %s without data-debug', async (_label, url, answer, requests) => {
    const page = preparePage(url, answer);
    await loadTag({ api });
    await settle();
    await sitebeam().track();
    expect(requested(page)).toHaveLength(requests);
    expect(page.printed).toEqual([]);
  });
});
