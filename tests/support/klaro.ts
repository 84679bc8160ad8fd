// Klaro! (the npm package `klaro`, BSD-3-Clause), a real consent manager for the tracker's consent mode:
// served to test pages from node_modules, never bundled.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';

const klaroFile = new URL('../../node_modules/klaro/dist/klaro.js', import.meta.url);

const QUEUE_STUB_JS = `window.sitebeam = window.sitebeam || { q: [], track: function (o) { this.q.push(o) }, consent: function (c) { this.c = c } };`;

const KLARO_CONFIG_JS = `window.klaroConfig = { acceptAll: true, services: [{ name: 'sitebeam', title: 'Sitebeam',
  purposes: ['statistics'], callback: function (given) { window.sitebeam.consent(given); } }] };`;

/** The README's queue stub, which keeps `consent()` calls made before the tag has loaded. */
export const QUEUE_STUB = `<script>${QUEUE_STUB_JS}</script>`;

/** Klaro! asking about one service, whose callback passes the visitor's choice to `sitebeam.consent()`. */
export const KLARO = `<script>${KLARO_CONFIG_JS}</script><script defer src="/klaro.js"></script>`;

/**
 * The queue stub and Klaro! on every page of a site this test does not write (as its theme would
 * add them). Not by rewriting the page: a document Playwright fulfils has no address space, and
 * Chromium's local network access then blocks its requests to the loopback instance.
 */
export async function addKlaroToEveryPage(page: Page, origin: string): Promise<void> {
  await serveKlaro(page, origin);
  await page.addInitScript(
    `${QUEUE_STUB_JS}${KLARO_CONFIG_JS}
document.addEventListener('DOMContentLoaded', function () {
  var script = document.createElement('script');
  script.src = '/klaro.js';
  document.head.append(script);
});`,
  );
}

/** The visitor's "yes": Klaro!'s own button. */
export const acceptButton = (page: Page) => page.getByRole('button', { name: "That's ok" });

/** Serves Klaro! at `${origin}/klaro.js` to this page. */
export async function serveKlaro(page: Page, origin: string): Promise<void> {
  await page.route(`${origin}/klaro.js`, async (route) =>
    route.fulfill({ contentType: 'text/javascript', body: await readFile(klaroFile, 'utf8') }),
  );
}

interface KlaroManager {
  updateConsent: (service: string, given: boolean) => void;
  saveAndApplyConsents: () => void;
}

/** The visitor withdraws consent in Klaro! (what its settings dialog does on "decline"). */
export const withdrawInKlaro = (page: Page) =>
  page.evaluate(() => {
    const manager = (
      window as never as { klaro: { getManager: () => KlaroManager } }
    ).klaro.getManager();
    manager.updateConsent('sitebeam', false);
    manager.saveAndApplyConsents();
  });
