// The WordPress and stub started by tests/wordpress/run.sh, and helpers to drive and inspect them.
import {
  type APIRequestContext,
  expect,
  type Locator,
  type Page,
  request,
  test,
} from '@playwright/test';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through tests/wordpress/run.sh`);
  return value;
}

export const site = {
  url: required('SITEBEAM_WP_URL'),
  stubUrl: required('SITEBEAM_STUB_URL'),
  admin: required('SITEBEAM_WP_ADMIN_USER'),
  adminPassword: required('SITEBEAM_WP_ADMIN_PASSWORD'),
  token: required('SITEBEAM_API_TOKEN_FOR_TESTS'),
  adminEmail: 'admin@example.com',
  contactRecipient: 'owner@example.com',
  website: 'wp-test.example',
  /** The WordPress release under test, as its version.php says: "6.1.9", "7.1". */
  version: required('SITEBEAM_WP_VERSION'),
};

/**
 * How long a test waits for the block editor to be up: WordPress's own load (several megabytes of
 * scripts from 6.9 on, with Drupal's suites beside it on two cores), not the plugin's, and over the
 * 20 s any other expectation gets.
 */
export const editorLoadTimeout = 30_000;

/** Whether the release under test is at least `major.minor`. */
export function atLeast(major: number, minor: number): boolean {
  const [siteMajor = 0, siteMinor = 0] = site.version.split('.').map(Number);
  return siteMajor > major || (siteMajor === major && siteMinor >= minor);
}

/**
 * WordPress's own console messages on the releases under test, each by its exact text and the core
 * script that writes it: one of ours, or any other text, is still a problem.
 */
export const coreConsoleMessages: readonly { text: string; script: string }[] = [
  // 7.1's block editor warns about the stylesheet core's own script-loader.php enqueues
  // (wp_enqueue_global_styles_css_custom_properties) when it copies it into the editor's iframe; the
  // <style> element it passes as a second argument reads "JSHandle@node".
  {
    text: 'global-styles-css-custom-properties-inline-css was added to the iframe incorrectly. Please use block.json or enqueue_block_assets to add styles to the iframe. JSHandle@node',
    script: '/wp-includes/js/dist/block-editor.min.js',
  },
];

function isCoreMessage(type: string, text: string, source: string): boolean {
  if (type !== 'warning' || !source.startsWith(site.url)) return false;
  const path = new URL(source).pathname;
  return coreConsoleMessages.some((known) => known.text === text && known.script === path);
}

/** Collects the browser console's warnings and errors; the returned function gives them. */
export function watchConsole(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'warning' && message.type() !== 'error') return;
    // This machine is offline: resources of other hosts (avatars, emoji) cannot load here.
    const source = message.location().url;
    if (source && !source.startsWith(site.url)) return;
    if (isCoreMessage(message.type(), message.text(), source)) return;
    problems.push(`${message.type()}: ${message.text()} (${source})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return () => problems;
}

export interface StubMessage {
  to: string;
  bcc?: string;
  cc?: string;
  replyto?: string;
  from?: string;
  from_name?: string;
  subject: string;
  content?: string;
  attachment?: { mime_type: string; file_name: string; b64: string };
}

export interface StubVisit {
  website: string;
  referrer: string;
}

async function api(): Promise<APIRequestContext> {
  return request.newContext();
}

async function call(method: string, url: string, data?: unknown): Promise<unknown> {
  const context = await api();
  try {
    const response = await context.fetch(url, { method, ...(data === undefined ? {} : { data }) });
    expect(response.status(), `${method} ${url}`).toBeLessThan(300);
    const text = await response.text();
    return text ? JSON.parse(text) : {};
  } finally {
    await context.dispose();
  }
}

export const stub = {
  messages: async () =>
    (
      (await call('GET', `${site.stubUrl}/__stub/emails`)) as { emails: { message: StubMessage }[] }
    ).emails.map((email) => email.message),
  visits: async () =>
    ((await call('GET', `${site.stubUrl}/__stub/visits`)) as { visits: StubVisit[] }).visits,
  reset: async () => {
    await call('DELETE', `${site.stubUrl}/__stub/emails`);
    await call('DELETE', `${site.stubUrl}/__stub/visits`);
    await call('DELETE', `${site.stubUrl}/__stub/faults`);
  },
  /**
   * The next `times` sends of a mail holding `marker` (text only this test sends, in its subject or message)
   * is answered `status`: no other test's mail can take the fault.
   */
  /** Faults on /v1/email for the requests whose body holds `marker` only (the test's own text). */
  failEmail: (
    marker: string,
    fault: { status?: number; retry_after?: number; delay_ms?: number; times?: number },
  ) =>
    call('PUT', `${site.stubUrl}/__stub/faults`, {
      faults: [{ method: 'POST', path_prefix: '/v1/email', body_contains: marker, ...fault }],
    }),
  clearFaults: () => call('DELETE', `${site.stubUrl}/__stub/faults`),
  /** The stub's faults not yet taken. */
  faults: async () =>
    ((await call('GET', `${site.stubUrl}/__stub/faults`)) as { faults: unknown[] }).faults,
  /** The next prompt holding `marker` (in its message) is answered 503 model_loading (Retry-After: 1). */
  promptLoadingOnce: (marker: string) =>
    call('PUT', `${site.stubUrl}/__stub/faults`, {
      faults: [
        {
          method: 'POST',
          path_prefix: '/v1/ai/prompt',
          status: 503,
          times: 1,
          body_contains: marker,
        },
      ],
    }),
  setEmailApi: (enabled: boolean) =>
    call('PATCH', `${site.stubUrl}/__stub/accounts/${encodeURIComponent('dev@example.com')}`, {
      email_api: enabled,
    }),
};

/** The test site's own routes (tests/wordpress/site/sitebeam-test-support.php). */
export const testSite = {
  sendMail: (mail: {
    to: string | string[];
    subject: string;
    message: string;
    headers?: string[];
    attachments?: [string, string][];
  }) =>
    call('POST', `${site.url}/wp-json/sitebeam-test/v1/mail`, mail) as Promise<{ sent: boolean }>,
  state: () =>
    call('GET', `${site.url}/wp-json/sitebeam-test/v1/state`) as Promise<{
      phpmailer?: string[][];
      wp_mail_failed?: { message: string; data: { failed_recipients?: string[] } }[];
    }>,
  resetState: () => call('DELETE', `${site.url}/wp-json/sitebeam-test/v1/state`),
  settings: (changes: Record<string, unknown>) =>
    call('POST', `${site.url}/wp-json/sitebeam-test/v1/settings`, changes),
  /** Publishes a page and gives its address. */
  page: async (title: string, content: string) =>
    (
      (await call('POST', `${site.url}/wp-json/sitebeam-test/v1/page`, { title, content })) as {
        link: string;
      }
    ).link,
  /** Fakes the plugin's translations (English text => translation); `{}` removes them. */
  translate: (translations: Record<string, string>) =>
    call('PUT', `${site.url}/wp-json/sitebeam-test/v1/translations`, translations),
  /** Turns the WP Consent API plugin on or off; false when it is not installed here. */
  consentApi: async (active: boolean) => {
    const context = await api();
    try {
      const url = `${site.url}/wp-json/sitebeam-test/v1/consent-api`;
      const response = await context.fetch(url, { method: 'PUT', data: { active } });
      if (response.status() === 404) return false;
      expect(response.status(), `PUT ${url}`).toBeLessThan(300);
      return true;
    } finally {
      await context.dispose();
    }
  },
  /** The outbox's rows, oldest first. */
  outbox: () =>
    call('GET', `${site.url}/wp-json/sitebeam-test/v1/outbox`) as Promise<
      {
        id: string;
        recipient: string;
        subject: string;
        state: string;
        tries: string;
        last_error: string;
      }[]
    >,
  emptyOutbox: () => call('DELETE', `${site.url}/wp-json/sitebeam-test/v1/outbox`),
  /**
   * Puts `count` rows made from `template` straight into the outbox (`{n}` numbers them); see
   * tests/wordpress/site/sitebeam-test-outbox-rows.php for the template's keys. Gives their ids.
   */
  outboxRows: async (template: Record<string, unknown>, count = 1) =>
    (
      (await call('POST', `${site.url}/wp-json/sitebeam-test/v1/outbox/rows`, {
        template,
        count,
      })) as { ids: number[] }
    ).ids,
  /** Time passes: the kept mail was written `age` seconds earlier and is due; with `run`, cron runs. */
  passTime: (age: number, run: boolean) =>
    call('POST', `${site.url}/wp-json/sitebeam-test/v1/outbox`, { age, run }) as Promise<{
      sent?: number;
    }>,
  /** Sends a site mail while the instance cannot be reached, so that the outbox keeps it (the instance stays so). */
  keepInOutbox: async (to: string, subject: string) => {
    await testSite.settings({ api_url: 'http://127.0.0.1:9' });
    expect((await testSite.sendMail({ to, subject, message: 'x' })).sent).toBe(true);
  },
  /** Adds a subscriber. */
  user: (login: string, email: string, password?: string) =>
    call('POST', `${site.url}/wp-json/sitebeam-test/v1/user`, { login, email, password }),
  resetRateLimits: () => call('DELETE', `${site.url}/wp-json/sitebeam-test/v1/rate-limits`),
  /** Whether the site allows an instance on a private host (SITEBEAM_ALLOW_PRIVATE_HOSTS), as the tests need. */
  privateHosts: (allowed: boolean) =>
    call('PUT', `${site.url}/wp-json/sitebeam-test/v1/private-hosts`, { allowed }),
  /** Activates Sitebeam (after a test deactivated it). */
  activateSitebeam: () => call('PUT', `${site.url}/wp-json/sitebeam-test/v1/sitebeam-active`),
  /** Runs WP-Cron as a system cron does: one request to wp-cron.php, answered once the due events ran. */
  cron: () => call('GET', `${site.url}/wp-cron.php`),
  /** Back to the site as installed: its settings, no faked translation, service or state, no added post or page. */
  reset: () => call('DELETE', `${site.url}/wp-json/sitebeam-test/v1/site`),
};

/**
 * Called at the top of every spec: it starts from the site as installed and the stub's empty mailbox, and leaves
 * them so, whatever another spec did or left behind when it failed.
 */
export function startAndEndWithTheInstalledSite(): void {
  const reset = async () => {
    await testSite.reset();
    await stub.reset();
  };
  test.beforeAll(reset);
  test.afterAll(reset);
  // Each test leaves no fault of its own on the stub (its own request took it), no widget busy (the
  // chat retrying a warming model: php -S would still run its request in the next test) and no
  // browser context of its own open; the test that did fails here, and the next starts clean anyway.
  test.afterEach(async ({ browser, context }) => {
    for (const page of context.pages()) {
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    }
    const faults = await stub.faults();
    const open = browser.contexts().filter((other) => other !== context);
    await stub.clearFaults();
    for (const other of open) await other.close();
    expect(faults, 'faults the test left on the stub').toEqual([]);
    expect(open.length, 'browser contexts the test left open').toBe(0);
  });
}

/**
 * Fills the contact form on the page with a visitor's question under `subject`, and waits until the ticket rendered
 * into the form is old enough (the protocol refuses one younger than 3 s); gives the form.
 */
export async function fillContactForm(page: Page, subject: string): Promise<Locator> {
  const form = page.locator('form[data-sitebeam-form]');
  await form.locator('[name=name]').fill('Visitor');
  await form.locator('[name=email]').fill('visitor@example.com');
  await form.locator('[name=subject]').fill(subject);
  await form.locator('[name=message]').fill('Are you open on Sunday?');
  await page.waitForTimeout(3100);
  return form;
}

export async function logIn(page: Page, user = site.admin, password = site.adminPassword) {
  await page.goto('/wp-login.php');
  // The login page focuses and selects the user field 200 ms after its script runs. Under load that timer
  // fired in the middle of filling the password, which then went into the user field: the login failed
  // and the test waited its whole timeout for /wp-admin/ (the first run on a fresh machine). Fill after it.
  await expect(page.locator('#user_login')).toBeFocused();
  await page.fill('#user_login', user);
  await page.fill('#user_pass', password);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/wp-login.php' &&
        response.request().method() === 'POST',
    ),
    page.click('#wp-submit'),
  ]);
  if (answer.status() !== 302) {
    const error = await page.locator('#login_error').textContent();
    throw new Error(`logging in as ${user} failed (${answer.status()}): ${error?.trim()}`);
  }
  // Logged in once the cookie is set; the tests go on to their own page, not the dashboard's assets.
  await page.waitForURL((url) => url.pathname.startsWith('/wp-admin/'), {
    waitUntil: 'domcontentloaded',
  });
}

/**
 * Reads until `read` returns a value `done` accepts, within the expectation timeout (not a fixed
 * 5 s, which a busy machine outlasted), and gives that value; or the last value seen.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  let last: T = await read();
  if (done(last)) return last;
  await expect
    .poll(async () => {
      last = await read();
      return done(last);
    })
    .toBe(true)
    .catch(() => undefined);
  return last;
}

/**
 * Records every HTML, JSON or script answer of the site to this page; the returned check fails when any
 * carried the API token, and gives how many answers it read.
 */
export function watchForToken(page: Page): () => Promise<number> {
  const checks: Promise<string | null | undefined>[] = [];
  // Once the body is complete: a response the page abandons (the editor's, from 6.9 on) would never give its text.
  page.on('requestfinished', (finished) => {
    checks.push(
      finished
        .response()
        .then(async (response) => {
          if (!response?.url().startsWith(site.url)) return undefined;
          if (!/html|json|javascript/.test(response.headers()['content-type'] ?? ''))
            return undefined;
          return (await response.text()).includes(site.token) ? response.url() : null;
        })
        .catch(() => null),
    );
  });
  return async () => {
    const results = (await Promise.all(checks)).filter((url) => url !== undefined);
    const leaks = results.filter((url) => url !== null);
    expect(leaks, 'answers carrying the API token').toEqual([]);
    return results.length;
  };
}
