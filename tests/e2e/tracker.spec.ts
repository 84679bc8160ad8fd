// The tracker tag in Debian's Chromium: customer pages on their own 127.0.0.1 origin, the built
// `sitebeam.min.js`, and the real stub recording the visits. Requests to the stub are watched as
// they leave the page; the stub's visit log says what was recorded.

import { readFile } from 'node:fs/promises';
import {
  type BrowserContext,
  chromium,
  expect,
  type Page,
  type Request,
  test,
} from '@playwright/test';
import type { TrackerRecord } from '../../snippet/src/client/contract.ts';
import { chromiumLaunchOptions } from '../support/chromium.ts';
import { expectNoFaultLeftAfterEach } from '../support/e2e-checks.ts';
import { startHeaderRecorder } from '../support/header-recorder.ts';
import { acceptButton, KLARO, QUEUE_STUB, serveKlaro, withdrawInKlaro } from '../support/klaro.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';

const website = 'example.com';
/** The website of the page whose view the 503 test's fault takes: no other test requests its path. */
const faultedWebsite = 'the-503-test.example';
const esmDist = new URL('../../snippet/dist/tracker/', import.meta.url);
let stub: RunningStub;
let site: StaticSite;
let strictSite: StaticSite;

/** The two tags of the README, with the switches a 127.0.0.1 page under Playwright needs. */
const tags = (api: string, extra = '', local = 'data-track-localhost') => `
<script defer src="/sitebeam.min.js" data-api="${api}" data-website="${website}"
        ${local} data-track-automation ${extra}></script>
<noscript><img src="${api}/v1/tracker/img/${website}" alt="" width="1" height="1"
     style="display:none" referrerpolicy="origin" crossorigin="anonymous"></noscript>`;

const html = (title: string, head: string, body = '', icon = '<link rel="icon" href="data:,">') =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${icon}${head}</head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

/** A module that starts the ESM build, as a bundled app would. */
const esmApp = (api: string) => `import { init } from './index.js';
init({ api: '${api}', website: '${website}', trackLocalhost: true, trackAutomation: true });`;

const ESM_PAGE = '<script type="module" src="/esm/app.js"></script>';

/** The ESM build waiting for consent, its `consent` where Klaro's callback finds it. */
const esmConsentApp = (api: string) => `import { consent, init, track } from './index.js';
window.sitebeam = { consent, track };
init({ api: '${api}', website: '${website}', trackLocalhost: true, trackAutomation: true, consent: 'required' });`;

const stubCall = (path: string, method = 'GET', body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: the stub's JSON, read field by field in assertions.
  callStub<any>(stub, path, method, body);

const visits = async (): Promise<TrackerRecord[]> => (await stubCall('/__stub/visits')).visits;

/** Waits for `count` visits, then long enough for a stray extra one to reach the stub. */
async function expectVisits(count: number): Promise<TrackerRecord[]> {
  if (count > 0) await expect.poll(async () => (await visits()).length).toBe(count);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const recorded = await visits();
  expect(recorded).toHaveLength(count);
  return recorded;
}

interface Watched {
  page: Page;
  /** Requests the page sent to the stub, in order. */
  beacons: Request[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

/** A new page of `context`, its requests to `host` (an origin) noted. */
async function watchHost(context: BrowserContext, host: string): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, beacons: [], errors: [] };
  page.on('request', (request) => {
    if (request.url().startsWith(host)) watched.beacons.push(request);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(String(error)));
  return watched;
}

const watch = (context: BrowserContext) => watchHost(context, stub.url);

test.beforeAll(async () => {
  stub = await startStub();
  const api = stub.url;
  const body = '<p><a href="/second">Second page</a></p>';
  site = await startStaticSite({
    '/': html('Home', tags(api), body),
    '/second': html('Second', tags(api)),
    '/503': html('503', tags(api).replaceAll(website, faultedWebsite)),
    '/dnt-ignored': html('DNT ignored', tags(api, 'data-respect-dnt="false"')),
    '/app': html('Hash app', tags(api, 'data-hash data-exclude="/app#/private*, /admin*"')),
    '/admin/users': html('Admin', tags(api, 'data-exclude="/app#/private*, /admin*"')),
    '/debug': html('Debug', tags(api, 'data-debug', '')),
    '/esm': html('ESM', ESM_PAGE),
    '/consent': html('Consent', QUEUE_STUB + KLARO + tags(api, 'data-consent')),
    '/esm/consent': html('ESM consent', ESM_PAGE.replace('app.js', 'consent-app.js') + KLARO),
    '/spa': html('Tag app', tags(api)),
    '/account/reset-password': html('Reset', tags(api)),
    '/esm/account/reset-password': html('Reset', ESM_PAGE),
    '/kept/account/reset-password': html('Reset', tags(api, 'data-keep-query="*"')),
  });
  strictSite = await startStaticSite(
    { '/': html('Strict', tags(api), '', '') },
    {
      'content-security-policy': `default-src 'none'; script-src 'self'; connect-src ${api}; img-src ${api}`,
    },
  );
});

test.afterAll(async () => {
  await site?.close();
  await strictSite?.close();
  await stub?.stop();
});

test.beforeEach(async () => {
  await stubCall('/__stub/visits', 'DELETE');
});

expectNoFaultLeftAfterEach(() => stub);

test('the tag records exactly one visit, for its website, with the page URL as referrer', async ({
  context,
}) => {
  const { page, beacons, errors } = await watch(context);
  const pageUrl = `${site.url}/?utm_source=e2e`;
  await page.goto(`${pageUrl}&from=e2e`);
  const [visit] = await expectVisits(1);
  expect(visit?.website).toBe(website);
  expect(visit?.referrer).toBe(pageUrl);
  expect(beacons.map((request) => request.url())).toEqual([
    `${stub.url}/v1/tracker/json/${website}`,
  ]);
  const headers = await beacons[0]?.allHeaders();
  expect(headers?.referer).toBe(pageUrl);
  expect(headers?.cookie).toBeUndefined();
  expect(errors).toEqual([]);
  expect(await context.cookies()).toEqual([]);
});

test('the page receives the record: track() and the sitebeam:track event', async ({ context }) => {
  const { page, errors } = await watch(context);
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    Object.assign(window, { seen });
    document.addEventListener('sitebeam:track', (event) =>
      seen.push((event as CustomEvent).detail),
    );
  });
  await page.goto(`${site.url}/`);
  const [visit] = await expectVisits(1);
  const seen = await page.evaluate(() => (window as unknown as { seen: TrackerRecord[] }).seen);
  expect(seen).toEqual([visit]);
  const tracked = await page.evaluate(() =>
    (
      window as unknown as { sitebeam: { track(): Promise<TrackerRecord | undefined> } }
    ).sitebeam.track(),
  );
  expect(tracked?.website).toBe(website);
  expect((await visits()).map((record) => record.cid)).toContain(tracked?.cid);
  expect(errors).toEqual([]);
});

test('a 503 on the JSON endpoint sends no pixel after it: the request may have been counted', async ({
  context,
}) => {
  // A GET has no body, and its headers are those of every view: the fault is on the path of the
  // website only this test's page names.
  await stubCall('/__stub/faults', 'PUT', {
    faults: [
      { method: 'GET', path_prefix: `/v1/tracker/json/${faultedWebsite}`, status: 503, times: 1 },
    ],
  });
  const { page, beacons, errors } = await watch(context);
  await page.goto(`${site.url}/503`);
  await expectVisits(0);
  expect(beacons.map((request) => request.url())).toEqual([
    `${stub.url}/v1/tracker/json/${faultedWebsite}`,
  ]);
  // Chromium itself reports the refused request; the tracker adds nothing.
  expect(errors.filter((error) => !error.includes('503'))).toEqual([]);
});

test('an instance without CORS records exactly one view: the hidden answer brings no pixel, and data-debug says no record came back', async ({
  context,
}) => {
  const noCors = await startStub(['--no-cors']);
  const noCorsSite = await startStaticSite({
    '/': html('No CORS', tags(noCors.url, 'data-debug')),
  });
  try {
    const page = await context.newPage();
    const sent: string[] = [];
    const printed: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(noCors.url)) sent.push(new URL(request.url()).pathname);
    });
    page.on('console', (message) => printed.push(message.text()));
    await page.goto(`${noCorsSite.url}/`);
    const recorded = async () =>
      (await callStub<{ visits: TrackerRecord[] }>(noCors, '/__stub/visits')).visits.length;
    await expect.poll(recorded).toBe(1);
    await expect
      .poll(() => printed.some((line) => line.startsWith('sitebeam no record')))
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await recorded()).toBe(1);
    expect(sent).toEqual([`/v1/tracker/json/${website}`]);
  } finally {
    await noCorsSite.close();
    await noCors.stop();
  }
});

test('following a link on a multi-page site records the second page', async ({ context }) => {
  const { page } = await watch(context);
  await page.goto(`${site.url}/`);
  await expectVisits(1);
  await page.getByRole('link', { name: 'Second page' }).click();
  const recorded = await expectVisits(2);
  expect(recorded[1]?.referrer).toBe(`${site.url}/second`);
});

test('going back to a page restored from the back/forward cache records it again', async () => {
  // Playwright turns the cache off by default; this test needs the browser as visitors have it.
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  const context = await browser.newContext();
  const { page, errors } = await watch(context);
  await page.addInitScript(() => {
    addEventListener('pageshow', (event) => {
      if (event.persisted) Object.assign(window, { restored: true });
    });
  });
  await page.goto(`${site.url}/`);
  await expectVisits(1);
  await page.getByRole('link', { name: 'Second page' }).click();
  await expectVisits(2);
  await page.goBack({ waitUntil: 'commit' });
  // Restored, not reloaded: the page kept the mark its own pageshow listener left.
  await page.waitForFunction(() => 'restored' in window, undefined, { timeout: 5000 });
  const recorded = await expectVisits(3);
  expect(recorded[2]?.referrer).toBe(`${site.url}/`);
  expect(errors).toEqual([]);
  await browser.close();
});

test('data-hash counts hash routes; data-exclude keeps paths out', async ({ context }) => {
  const { page, errors } = await watch(context);
  await page.goto(`${site.url}/app#/home`);
  await expectVisits(1);
  await page.evaluate(() => {
    location.hash = '#/settings';
  });
  await expectVisits(2);
  await page.evaluate(() => {
    location.hash = '#/private/keys';
  });
  await expectVisits(2);
  await page.goto(`${site.url}/admin/users`);
  await expectVisits(2);
  expect(errors).toEqual([]);
});

test('data-debug says why a view was skipped; nothing is printed otherwise', async ({
  context,
}) => {
  const { page, beacons } = await watch(context);
  const printed: string[] = [];
  page.on('console', (message) => printed.push(message.text()));
  await page.goto(`${site.url}/debug`);
  await expect.poll(() => printed).toEqual(['sitebeam skip trackLocalhost']);
  await page.goto(`${site.url}/`);
  await expectVisits(1);
  expect(printed).toEqual(['sitebeam skip trackLocalhost']);
  expect(beacons).toHaveLength(1);
});

test.describe('self-exclusion', () => {
  test('a visitor with the sitebeam_ignore=true cookie is not recorded', async ({ context }) => {
    const { page, beacons, errors } = await watch(context);
    await context.addCookies([{ name: 'sitebeam_ignore', value: 'true', url: site.url }]);
    await page.goto(`${site.url}/`);
    await page.getByRole('link', { name: 'Second page' }).click();
    await expectVisits(0);
    expect(beacons).toEqual([]);
    expect(errors).toEqual([]);
  });
});

test.describe('Do Not Track', () => {
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }),
    );
  });

  test('a visitor who sends it is not recorded and nothing leaves the page', async ({
    context,
  }) => {
    const { page, beacons, errors } = await watch(context);
    await page.goto(`${site.url}/`);
    await expectVisits(0);
    expect(beacons).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('data-respect-dnt="false" records the visit anyway', async ({ context }) => {
    const { page } = await watch(context);
    await page.goto(`${site.url}/dnt-ignored`);
    await expectVisits(1);
  });
});

test('with JavaScript disabled the <noscript> pixel records one visit', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const { page, beacons } = await watch(context);
  await page.goto(`${site.url}/`);
  const [visit] = await expectVisits(1);
  expect(visit?.website).toBe(website);
  expect(visit?.referrer).toBe(`${site.url}/`);
  expect(beacons.map((request) => request.url())).toEqual([
    `${stub.url}/v1/tracker/img/${website}`,
  ]);
  await context.close();
});

test.describe('under a strict Content-Security-Policy (no inline script, no eval)', () => {
  test('the JSON send works with the API in connect-src', async ({ context }) => {
    const { page, errors } = await watch(context);
    await page.goto(`${strictSite.url}/`);
    const [visit] = await expectVisits(1);
    expect(visit?.referrer).toBe(`${strictSite.url}/`);
    expect(errors).toEqual([]);
  });

  test('the <noscript> pixel works with the API in img-src', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const { page, beacons } = await watch(context);
    await page.goto(`${strictSite.url}/`);
    await expectVisits(1);
    expect(beacons.map((request) => new URL(request.url()).pathname)).toEqual([
      `/v1/tracker/img/${website}`,
    ]);
    await context.close();
  });
});

test('the tag runs no lazily compiled function before its request', async ({ browser }) => {
  // Lazy compilation of each function at its first call stood before the request (~2 ms on this
  // machine); the build's compile hint has them all compiled with the file, while it streams in.
  const context = await browser.newContext();
  const { page } = await watch(context);
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-v8.compile'],
  });
  const sent = page.waitForRequest((request) => request.url().includes('/v1/tracker/json/'));
  await page.goto(`${site.url}/`);
  await sent;
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: { name: string; ts: number; tid: number; args?: { data?: { url?: string } } }[];
  };
  await context.close();
  const evaluation = traceEvents.find(
    (event) =>
      event.name === 'EvaluateScript' && event.args?.data?.url?.endsWith('/sitebeam.min.js'),
  );
  const request = traceEvents.find(
    (event) =>
      event.name === 'ResourceSendRequest' && !!event.args?.data?.url?.includes('/v1/tracker/'),
  );
  expect(evaluation && request).toBeTruthy();
  const lazyCompiles = traceEvents.filter(
    (event) =>
      event.name === 'V8.CompileCode' &&
      event.tid === evaluation?.tid &&
      event.ts > (evaluation?.ts ?? 0) &&
      event.ts < (request?.ts ?? 0),
  );
  expect(lazyCompiles).toEqual([]);
});

/** The two builds, each on a page of its own: the tag, and the ESM build started by a module. */
const builds = [
  { name: 'the tag', path: '/spa' },
  { name: 'the ESM build', path: '/esm' },
];

/** Serves the ESM build's files under /esm/, and the module that starts it. */
async function serveEsm(page: Page) {
  await page.route(`${site.url}/esm/*.js`, async (route) => {
    const file = new URL(route.request().url()).pathname.replace('/esm/', '');
    const apps: Record<string, string> = {
      'app.js': esmApp(stub.url),
      'consent-app.js': esmConsentApp(stub.url),
    };
    const body = apps[file] ?? (await readFile(new URL(file, esmDist), 'utf8'));
    await route.fulfill({ contentType: 'text/javascript', body });
  });
  await serveKlaro(page, site.url);
}

/** A watched page with the ESM build served, opened on the build's page (`start`). */
async function openBuild(context: BrowserContext, path: string) {
  const watched = await watch(context);
  await serveEsm(watched.page);
  const start = `${site.url}${path}`;
  await watched.page.goto(start);
  return { ...watched, start };
}

/** The `Referer` of each visit request, in the order they left the page. */
const referers = (beacons: Request[]) =>
  Promise.all(beacons.map((request) => request.headerValue('referer')));

for (const build of [
  { name: 'the tag', path: '/consent' },
  { name: 'the ESM build', path: '/esm/consent' },
]) {
  test(`consent with Klaro!, ${build.name}: nothing before "yes", one view after, routes counted, nothing after "no"`, async ({
    context,
  }) => {
    const { page, beacons, errors, start } = await openBuild(context, build.path);
    const accept = acceptButton(page);
    await expect(accept).toBeVisible();
    await expectVisits(0);
    expect(beacons).toEqual([]);

    await accept.click();
    const [first] = await expectVisits(1);
    expect(first?.referrer).toBe(start);

    await page.evaluate((path) => history.pushState({}, '', `${path}/after`), build.path);
    await expectVisits(2);
    expect(await referers(beacons)).toEqual([start, `${start}/after`]);

    await withdrawInKlaro(page);
    await page.evaluate((path) => history.pushState({}, '', `${path}/withdrawn`), build.path);
    await page.evaluate(() =>
      (window as never as { sitebeam: { track: () => Promise<unknown> } }).sitebeam.track(),
    );
    await expectVisits(2);
    expect(beacons).toHaveLength(2);
    expect(errors).toEqual([]);
  });
}

for (const build of builds) {
  test.describe(`single-page navigation, ${build.name}`, () => {
    test('a route shown 50 ms, another, then Back: one visit each, in order, from its own URL', async ({
      context,
    }) => {
      const { page, beacons, errors, start } = await openBuild(context, build.path);
      await expectVisits(1);
      await page.evaluate(async (path) => {
        const shown = () => new Promise((resolve) => setTimeout(resolve, 50));
        history.pushState({ route: 'a' }, '', `${path}/a`);
        await shown();
        history.pushState({ route: 'b' }, '', `${path}/b`);
        await shown();
        history.back();
      }, build.path);
      const expected = [start, `${start}/a`, `${start}/b`, `${start}/a`];
      const recorded = await expectVisits(4);
      expect(await referers(beacons)).toEqual(expected);
      expect(recorded.map((visit) => visit.referrer).sort()).toEqual([...expected].sort());
      expect(recorded.every((visit) => visit.website === website)).toBe(true);
      expect(errors).toEqual([]);
    });

    test('a push then a replace of the same path, or the same path twice, is one visit', async ({
      context,
    }) => {
      const { page, beacons, start } = await openBuild(context, build.path);
      await expectVisits(1);
      await page.evaluate(
        ([path, first]) => {
          history.pushState({}, '', `${path}/settings`);
          history.replaceState({ tab: 2 }, '', `${path}/settings?tab=2`);
          history.pushState({}, '', `${path}/settings`);
          history.replaceState(history.state, '', first);
        },
        [build.path, start],
      );
      await expectVisits(3);
      expect(await referers(beacons)).toEqual([start, `${start}/settings`, start]);
    });

    test("the page's own history methods keep their this, state and return value", async ({
      context,
    }) => {
      const { page, errors } = await watch(context);
      await serveEsm(page);
      // A router that wrapped pushState before the tracker loaded.
      await page.addInitScript(() => {
        const native = history.pushState;
        history.pushState = function (...args) {
          Object.assign(window, { routerThis: this === history });
          native.apply(this, args);
          return 'from the router';
        };
      });
      await page.goto(`${site.url}${build.path}`);
      await expectVisits(1);
      const result = await page.evaluate((path) => {
        const returned = history.pushState({ id: 7 }, '', `${path}/item`);
        const replaced = history.replaceState({ id: 8 }, '', `${path}/item/8`);
        return {
          returned,
          replaced,
          state: history.state,
          routerThis: (window as unknown as { routerThis: boolean }).routerThis,
          path: location.pathname,
        };
      }, build.path);
      expect(result).toEqual({
        returned: 'from the router',
        replaced: undefined,
        state: { id: 8 },
        routerThis: true,
        path: `${build.path}/item/8`,
      });
      await expectVisits(3);
      expect(errors).toEqual([]);
    });

    test('asks for no timer, interval or animation frame', async ({ context }) => {
      const { page } = await watch(context);
      await serveEsm(page);
      // The page has no script of its own: every call counted here is the tracker's.
      await page.addInitScript(() => {
        const asked: string[] = [];
        Object.assign(window, { asked });
        for (const name of ['setTimeout', 'setInterval', 'requestAnimationFrame'] as const) {
          const original = window[name] as (...args: unknown[]) => number;
          Object.assign(window, {
            [name]: (...args: unknown[]) => {
              asked.push(name);
              return original.apply(window, args);
            },
          });
        }
      });
      await page.goto(`${site.url}${build.path}`);
      await expectVisits(1);
      await page.evaluate((path) => history.pushState({}, '', `${path}/next`), build.path);
      await expectVisits(2);
      expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual(
        [],
      );
    });
  });
}

const secretPath = '/account/reset-password?token=SECRET&email=victim%40mail.example';
const magicLink = '/magic-login?auth=MAGIC&utm_campaign=spring';

const secretBuilds = [
  { name: 'the tag', prefix: '' },
  { name: 'the ESM build', prefix: '/esm' },
];

for (const { name, prefix } of secretBuilds) {
  test(`${name}: page URLs reach the instance without their secrets`, async ({ context }) => {
    const { page, beacons, errors } = await watch(context);
    await serveEsm(page);
    await page.goto(`${site.url}${prefix}${secretPath}#token=FRAGMENT`);
    await expectVisits(1);
    await page.evaluate((path) => history.pushState({}, '', path), `${prefix}${magicLink}`);
    const recorded = await expectVisits(2);
    const expected = [
      `${site.url}${prefix}/account/reset-password`,
      `${site.url}${prefix}/magic-login?utm_campaign=spring`,
    ];
    expect(recorded.map((visit) => visit.referrer)).toEqual(expected);
    expect(await referers(beacons)).toEqual(expected);
    expect(JSON.stringify(recorded)).not.toMatch(/SECRET|victim|MAGIC|FRAGMENT/);
    expect(errors).toEqual([]);
  });
}

test.describe('the pixel, for pages without JavaScript', () => {
  test('the tag never asks it, even in a browser without fetch', async ({ context }) => {
    // Every browser that runs the tag's ES2017 code has fetch: one without it sends nothing.
    await context.addInitScript(() => {
      delete (window as { fetch?: unknown }).fetch;
    });
    const { page, beacons, errors } = await watch(context);
    await page.goto(`${site.url}/`);
    await expectVisits(0);
    expect(beacons).toEqual([]);
    expect(errors).toEqual([]);
  });

  // The instance's answer to an anonymous image request is only readable with CORS: without it
  // the image fails to load, after the request was sent and the view recorded.
  for (const [label, flags] of [
    ['with CORS', []],
    ['without CORS (--no-cors)', ['--no-cors']],
  ] as const) {
    test(`${label}: the instance receives no cookie of its site and records the view once`, async ({
      browser,
    }) => {
      const instance = await startStub([...flags]);
      const front = await startHeaderRecorder(instance.url);
      // The control: an image without crossorigin carries the cookie to the same host.
      const control = `<noscript><img src="${front.url}/control" alt=""></noscript>`;
      const instanceSite = await startStaticSite({
        '/': html('Pixel', tags(front.url) + control),
      });
      const context = await browser.newContext({ javaScriptEnabled: false });
      try {
        // Cookies are not kept per port: this one is the instance's, set on its host.
        await context.addCookies([{ name: 'site_session', value: 'S3SSION', url: front.url }]);
        const { page, beacons, errors } = await watchHost(context, front.url);
        await page.goto(`${instanceSite.url}/`);
        const recorded = async () =>
          (await callStub<{ visits: TrackerRecord[] }>(instance, '/__stub/visits')).visits;
        await expect.poll(async () => (await recorded()).length).toBe(1);
        await expect.poll(() => front.received.length).toBe(2);
        expect((await recorded()).map((visit) => visit.website)).toEqual([website]);
        expect(beacons.map((request) => new URL(request.url()).pathname).sort()).toEqual([
          '/control',
          `/v1/tracker/img/${website}`,
        ]);
        expect(errors.some((error) => error.includes('CORS'))).toBe(flags.length > 0);
        expect(front.received.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
          { path: '/control', cookie: 'site_session=S3SSION' },
          { path: `/v1/tracker/img/${website}`, cookie: undefined },
        ]);
      } finally {
        await context.close();
        await instanceSite.close();
        await front.close();
        await instance.stop();
      }
    });
  }

  test('<noscript> reports the origin only and sends no cookies', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies([{ name: 'site_session', value: 'S3SSION', url: stub.url }]);
    const { page, beacons } = await watch(context);
    await page.goto(`${site.url}${secretPath}`);
    const [visit] = await expectVisits(1);
    expect(visit?.referrer).toBe(`${site.url}/`);
    expect(beacons).toHaveLength(1);
    expect((await beacons[0]?.allHeaders())?.cookie).toBeUndefined();
    await context.close();
  });
});
