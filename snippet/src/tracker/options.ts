// The tracker's options: `init()` of the ESM build, and the tag's data-* attributes as the core reads them.
import type { TrackerRecord } from '../client/contract.js';

export type { TrackerRecord };

export interface TrackerOptions {
  /** Base URL of the Sitebeam instance, e.g. `https://api.instance.example` (a trailing slash is tolerated). */
  api: string;
  /** Website name sent to the API. Default: `location.hostname`. */
  website?: string;
  /** Referrer policy of the request: the page URL reaches the API as `Referer`. Default: `no-referrer-when-downgrade`. */
  referrerPolicy?: ReferrerPolicy;
  /**
   * Query parameters the page URL keeps in the visit record, or `'*'` for all; the fragment never.
   * Default: the five `utm_*` campaign parameters.
   */
  keepQuery?: string[] | '*';
  /** Count hash changes (`#/route`) as page views. Default: false. */
  hash?: boolean;
  /** Skip visitors who send Do Not Track or Global Privacy Control. Default: true. */
  respectDnt?: boolean;
  /** Count browsers driven by automation (`navigator.webdriver`). Default: false. */
  trackAutomation?: boolean;
  /** Count localhost, 127.x.x.x, [::1] and file: pages. Default: false. */
  trackLocalhost?: boolean;
  /** Path patterns never counted; `*` matches any characters, e.g. `/admin/*`. */
  exclude?: string[];
  /** Print in the console which way each view went (JSON, the pixel), or why it was skipped. Default: false. */
  debug?: boolean;
  /** `'required'`: send nothing until `consent(true)`. Default: counted without asking. */
  consent?: 'required';
}

export interface TrackOptions {
  /** Send this view under another website name than the configured one. */
  website?: string;
}

/** Sends one page view; resolves to the visit record, or `undefined` when skipped, sent by the pixel or no record came back. Never rejects. */
export type Track = (options?: TrackOptions) => Promise<TrackerRecord | undefined>;

/** Gives (`true`) or withdraws (`false`) the visitor's consent to be counted; a "yes" counts the page shown, once. */
export type Consent = (given: boolean) => void;

/** The name of the `CustomEvent` dispatched on `document` after each JSON send; `detail` is the record. */
export const TRACK_EVENT = 'sitebeam:track';

/**
 * What the core reads: the tag's `script.dataset` as it stands, so the bundle spells no option
 * name twice. A switch is on when its key is present (an HTML boolean attribute), except
 * `respectDnt`, which only the value `"false"` turns off. `init()` converts its options to this.
 */
export interface Config {
  api: string;
  website?: string;
  referrerPolicy?: string;
  /** Comma-separated parameter names, or `*`. */
  keepQuery?: string;
  hash?: string;
  respectDnt?: string;
  trackAutomation?: string;
  trackLocalhost?: string;
  /** Comma-separated patterns. */
  exclude?: string;
  debug?: string;
  consent?: string;
}
