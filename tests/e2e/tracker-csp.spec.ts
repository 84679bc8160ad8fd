// The tag and the ESM build under a page's Content-Security-Policy, in Debian's Chromium, against
// the real stub on another origin. Where the policy keeps fetch from the instance but lets images
// reach it, each view goes by the hidden pixel, once; where it allows both, by JSON; where it
// allows neither, nothing leaves and nothing is thrown. The stub's visit log says what was recorded.

import { readFile } from 'node:fs/promises';
import { type BrowserContext, expect, type Page, type Request, test } from '@playwright/test';
import type { TrackerRecord } from '../../snippet/src/client/contract.ts';
import { type StaticSite, startStaticSite } from '../support/static-site.ts';
import { callStub, type RunningStub, startStub } from '../support/stub-server.ts';

const website = 'csp.example';
const esmDist = new URL('../../snippet/dist/tracker/', import.meta.url);
let stub: RunningStub;
const sites: Record<'imageOnly' | 'both' | 'neither', StaticSite | undefined> = {
  imageOnly: undefined,
  both: undefined,
  neither: undefined,
};

const tag = (api: string) =>
  `<script defer src="/sitebeam.min.js" data-api="${api}" data-website="${website}"
        data-track-localhost data-track-automation data-debug></script>`;

/** The ESM build, started by a module as a bundled app would; its files come from `serveEsm`. */
const esmApp = (api: string) => `import { init } from './index.js';
init({ api: '${api}', website: '${website}', trackLocalhost: true, trackAutomation: true, debug: true });`;

const html = (title: string, head: string) =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${head}</head><body><main><h1>${title}</h1></main></body></html>`;

const pages = (api: string) => ({
  '/': html('Tag', tag(api)),
  '/esm': html('ESM', '<script type="module" src="/esm/app.js"></script>'),
});

const visits = async (): Promise<TrackerRecord[]> =>
  (await callStub<{ visits: TrackerRecord[] }>(stub, '/__stub/visits')).visits.filter(
    (visit) => visit.website === website,
  );

test.beforeAll(async () => {
  stub = await startStub();
  const api = stub.url;
  // As many hosts and themes set it: images from anywhere, connections to the site itself.
  sites.imageOnly = await startStaticSite(pages(api), {
    'content-security-policy': `default-src 'self'; connect-src 'self'; img-src * data:`,
  });
  sites.both = await startStaticSite(pages(api), {
    'content-security-policy': `default-src 'self'; connect-src 'self' ${api}; img-src 'self' ${api}`,
  });
  sites.neither = await startStaticSite(pages(api), {
    'content-security-policy': `default-src 'self'; connect-src 'self'; img-src 'self'`,
  });
});

test.afterAll(async () => {
  for (const site of Object.values(sites)) await site?.close();
  await stub?.stop();
});

test.beforeEach(async () => {
  await callStub(stub, '/__stub/visits', 'DELETE');
});

interface Watched {
  page: Page;
  /** Requests the page sent to the stub, in order. */
  beacons: Request[];
  /** Uncaught exceptions. */
  thrown: string[];
  /** The tracker's data-debug lines. */
  said: string[];
  /** `blockedURI` of each violation of the page's policy, as the page saw it. */
  violations: () => Promise<string[]>;
}

async function watch(context: BrowserContext, site: StaticSite): Promise<Watched> {
  const page = await context.newPage();
  // Injected by the browser, not the page: the policy does not apply to it.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(event.blockedURI));
  });
  const watched: Watched = {
    page,
    beacons: [],
    thrown: [],
    said: [],
    violations: () =>
      page.evaluate(() => (window as unknown as { violations: string[] }).violations),
  };
  page.on('request', (request) => {
    if (request.url().startsWith(stub.url)) watched.beacons.push(request);
  });
  page.on('console', (message) => {
    if (message.text().startsWith('sitebeam ')) watched.said.push(message.text());
  });
  page.on('pageerror', (error) => watched.thrown.push(String(error)));
  await page.route(`${site.url}/esm/*.js`, async (route) => {
    const file = new URL(route.request().url()).pathname.replace('/esm/', '');
    const body =
      file === 'app.js' ? esmApp(stub.url) : await readFile(new URL(file, esmDist), 'utf8');
    await route.fulfill({ contentType: 'text/javascript', body });
  });
  return watched;
}

const json = () => `${stub.url}/v1/tracker/json/${website}`;
/** The pixel's URL for the page's view `n` (from 0) sent by it. */
const pixel = (n: number) => `${stub.url}/v1/tracker/img/${website}?${n}`;

/** Once each request to the stub has been answered or has failed. */
const settled = (beacons: Request[]) =>
  Promise.all(beacons.map((request) => request.response().catch(() => null)));

for (const build of [
  { name: 'the tag', path: '/' },
  { name: 'the ESM build', path: '/esm' },
]) {
  test(`${build.name}, images allowed and fetch not: the first view and each SPA route are counted once, by the pixel`, async ({
    context,
  }) => {
    const site = sites.imageOnly as StaticSite;
    // A session cookie of the instance's host (cookies are not kept per port), as a visitor
    // logged in there would have: an image without crossorigin would carry it.
    await context.addCookies([{ name: 'site_session', value: 'S3SSION', url: stub.url }]);
    const { page, beacons, thrown, said, violations } = await watch(context, site);
    await page.goto(`${site.url}${build.path}`);
    await expect.poll(async () => (await visits()).length).toBe(1);
    for (const [i, route] of ['/pricing', '/about?plan=pro'].entries()) {
      await page.evaluate((url) => history.pushState(null, '', url), route);
      await expect.poll(async () => (await visits()).length).toBe(i + 2);
    }
    await settled(beacons);
    // The JSON request was blocked once, before it left; every view then went by the pixel.
    expect(await violations()).toEqual([json()]);
    expect(beacons.map((request) => request.url())).toEqual([pixel(0), pixel(1), pixel(2)]);
    for (const request of beacons) {
      const headers = await request.allHeaders();
      // The origin only (no path, no query), and no cookie.
      expect(headers.referer).toBe(`${site.url}/`);
      expect(headers.cookie).toBeUndefined();
    }
    const recorded = await visits();
    expect(recorded.map((visit) => visit.referrer)).toEqual([
      `${site.url}/`,
      `${site.url}/`,
      `${site.url}/`,
    ]);
    expect(said).toEqual([
      `sitebeam no record ${website}`,
      `sitebeam pixel ${pixel(0)}`,
      `sitebeam pixel ${pixel(1)}`,
      `sitebeam pixel ${pixel(2)}`,
    ]);
    expect(thrown).toEqual([]);
  });

  test(`${build.name}, both allowed: the view is counted once, by JSON`, async ({ context }) => {
    const site = sites.both as StaticSite;
    const { page, beacons, thrown, said, violations } = await watch(context, site);
    await page.goto(`${site.url}${build.path}?utm_source=csp&token=secret`);
    await expect.poll(() => said.length).toBe(1);
    await settled(beacons);
    const recorded = await visits();
    expect(recorded.map((visit) => visit.referrer)).toEqual([
      `${site.url}${build.path}?utm_source=csp`,
    ]);
    expect(beacons.map((request) => request.url())).toEqual([json()]);
    expect(said).toEqual([`sitebeam json ${json()}`]);
    expect(await violations()).toEqual([]);
    expect(thrown).toEqual([]);
  });

  test(`${build.name}, neither allowed: nothing is sent and nothing is thrown`, async ({
    context,
  }) => {
    const site = sites.neither as StaticSite;
    const { page, beacons, thrown, said, violations } = await watch(context, site);
    await page.goto(`${site.url}${build.path}`);
    // The JSON request, then the pixel: both refused by the policy before they left.
    await expect.poll(violations).toEqual([json(), pixel(0)]);
    await page.evaluate(() => history.pushState(null, '', '/next'));
    await expect.poll(violations).toEqual([json(), pixel(0), pixel(1)]);
    // Chromium shows the blocked images as requests that failed before they left.
    const failures = await Promise.all(
      beacons.map(async (request) => (await request.response()) ?? request.failure()?.errorText),
    );
    expect(failures).toEqual(beacons.map(() => 'csp'));
    expect(await visits()).toEqual([]);
    expect(said).toEqual([
      `sitebeam no record ${website}`,
      `sitebeam pixel ${pixel(0)}`,
      `sitebeam pixel ${pixel(1)}`,
    ]);
    expect(thrown).toEqual([]);
  });
}
