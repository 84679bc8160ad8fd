// Klaro! (the npm package `klaro`, BSD-3-Clause), a real consent manager for the tracker's consent mode:
// served to test pages from node_modules, never bundled.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';

const klaroFile = new URL('../../node_modules/klaro/dist/klaro.js', import.meta.url);

/** The README's queue stub, which keeps `consent()` calls made before the tag has loaded. */
export const QUEUE_STUB = `<script>window.sitebeam = window.sitebeam || { q: [], track: function (o) { this.q.push(o) }, consent: function (c) { this.c = c } };</script>`;

/** Klaro! asking about one service, whose callback passes the visitor's choice to `sitebeam.consent()`. */
export const KLARO = `<script>
window.klaroConfig = { acceptAll: true, services: [{ name: 'sitebeam', title: 'Sitebeam',
  purposes: ['statistics'], callback: function (given) { window.sitebeam.consent(given); } }] };
</script><script defer src="/klaro.js"></script>`;

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
