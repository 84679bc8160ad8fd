// Loads the tracker the way a page does, with the network, the pixel and the browser's
// privacy signals replaced by fakes the tests can read and set.
import { vi } from 'vitest';
import type { TrackerRecord } from '../../src/client/contract.js';

export const api = 'https://api.instance.example';

export const record = (website: string): TrackerRecord => ({
  status: 'ok',
  type: 'tracker',
  time: '2024-12-19T20:06:02.556973',
  host: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  os: 'linux',
  device: 'computer',
  browser: 'chrome',
  details: { brand: 'unknown', type: 'unknown' },
  referrer: 'https://shop.example/',
  website,
  infos: {
    status: 'ok',
    status_code: 200,
    city: 'Paris',
    region: 'Ile-de-France',
    country: 'France',
    region_code: 'IDF',
    country_iso: 'FR',
    lookup: 'FRA',
    timezone: 'Europe/Paris',
    utc_offset: '+0100',
    currency: 'EUR',
    asn: 'AS3215',
    org: 'Orange',
    ip: '203.0.113.7',
    network: '203.0.113.0/24',
    version: 'IPv4',
    hostname: 'unknown',
    loc: '48.8534,2.3488',
  },
  level: 'INFO',
  cid: '7d3c2a52-9d3e-4a0f-8d0e-0f5e3c9b8a11',
});

/** A stand-in for `new Image()`: remembers what the tracker set, never loads anything. */
export class FakeImage {
  static made: FakeImage[] = [];
  referrerPolicy = '';
  crossOrigin: string | null = null;
  src = '';
  constructor() {
    FakeImage.made.push(this);
  }
}

export type FetchAnswer = 'ok' | number | 'reject' | 'not-json';

export interface Page {
  fetch: ReturnType<typeof vi.fn>;
  /** The document's URL at the moment of each fetch: what the `Referer` of that view names. */
  sentFrom: string[];
  pixels: FakeImage[];
  events: CustomEvent[];
  /** What the tracker printed, on any console method. */
  printed: unknown[][];
}

export const setUrl = (url: string): void =>
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);

const overridden: [object, string, PropertyDescriptor | undefined][] = [];

/** Sets a browser property (navigator.webdriver, document.prerendering…) until `resetPage()`. */
export const setProperty = (target: object, name: string, value: unknown): void => {
  overridden.push([target, name, Object.getOwnPropertyDescriptor(target, name)]);
  Object.defineProperty(target, name, { configurable: true, get: () => value });
};

/** Sets a cookie as a visitor would in the console. */
export const setCookie = (cookie: string): void => {
  // biome-ignore lint/suspicious/noDocumentCookie: what the README tells visitors to run.
  document.cookie = cookie;
};

/** Makes reading a browser property throw, as a blocked storage or a sandboxed frame does. */
export const throwOnRead = (target: object, name: string): void => {
  overridden.push([target, name, Object.getOwnPropertyDescriptor(target, name)]);
  Object.defineProperty(target, name, {
    configurable: true,
    get: () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    },
  });
};

/** A page at `url` whose fetch answers `answer`; the browser sends no privacy signal and is not automated. */
export const preparePage = (url = 'https://shop.example/', answer: FetchAnswer = 'ok'): Page => {
  setUrl(url);
  setProperty(navigator, 'webdriver', false);
  setProperty(navigator, 'doNotTrack', null);
  setProperty(navigator, 'globalPrivacyControl', false);
  FakeImage.made = [];
  const page: Page = {
    fetch: vi.fn(async (input: string) => {
      page.sentFrom.push(location.href);
      if (answer === 'reject') throw new TypeError('Failed to fetch');
      if (answer === 'not-json') return new Response('<html>', { status: 200 });
      if (typeof answer === 'number') return new Response('{"status":"ko"}', { status: answer });
      const website = decodeURIComponent(String(input).split('/').pop() ?? '');
      return new Response(JSON.stringify(record(website)), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
    sentFrom: [],
    pixels: FakeImage.made,
    events: [],
    printed: [],
  };
  // Each test loads a fresh copy of the tracker: the listeners and history wrappers of the
  // previous copies must be gone, or they would count views too.
  for (const target of new Set([globalThis, window, document]))
    vi.spyOn(target as EventTarget, 'addEventListener');
  vi.stubGlobal('fetch', page.fetch);
  vi.stubGlobal('Image', FakeImage);
  document.addEventListener('sitebeam:track', (event) => page.events.push(event as CustomEvent), {
    signal: listeners.signal,
  });
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      page.printed.push(args);
    });
  }
  return page;
};

let listeners = new AbortController();

/** Runs the built tag's entry as a `<script defer data-…>` element would. */
export const loadTag = async (data: Record<string, string>): Promise<void> => {
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(data)) script.setAttribute(`data-${name}`, value);
  document.head.append(script);
  setProperty(document, 'currentScript', script);
  vi.resetModules();
  await import('../../src/tracker/script-tag.js');
  setProperty(document, 'currentScript', null);
};

/** Lets pending sends finish (fetch, JSON parsing, the event). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

export const resetPage = (): void => {
  for (const target of new Set([globalThis, window, document])) {
    const added = vi.mocked((target as EventTarget).addEventListener).mock?.calls ?? [];
    for (const [type, listener] of added) if (listener) target.removeEventListener(type, listener);
  }
  for (const method of ['pushState', 'replaceState'] as const)
    delete (history as Partial<History>)[method];
  listeners.abort();
  listeners = new AbortController();
  for (const [target, name, original] of overridden.splice(0).reverse()) {
    if (original) Object.defineProperty(target, name, original);
    else delete (target as Record<string, unknown>)[name];
  }
  delete (window as { sitebeam?: unknown }).sitebeam;
  try {
    localStorage.clear();
  } catch {}
  document.head.innerHTML = '';
  setCookie('sitebeam_ignore=; max-age=0; path=/');
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
};

/** The URLs the tracker asked for, fetch first, then pixels. */
export const requested = (page: Page): string[] => [
  ...page.fetch.mock.calls.map((call) => String(call[0])),
  ...page.pixels.map((pixel) => pixel.src),
];
