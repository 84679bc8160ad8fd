// The one configuration of this page's tracker, set once by the tag or by `init()`.
import type { Config, TrackerOptions } from './options.js';

export let config: Config;

/**
 * Whether views may be sent. Where the site asks for consent (`data-consent`), not until the
 * page's consent manager says yes; held in memory only: the manager remembers the choice.
 */
export let consented: boolean;

export const configure = (value: Config): void => {
  config = value;
  consented = !('consent' in value);
};

/**
 * Only `true` gives consent: a banner passing anything else (`'no'`, `1`) has not said yes.
 * Not `given` like its callers' parameter: terser inlines a call whose argument has the
 * parameter's name as a function call (6 B gzip).
 */
export const setConsent = (answer: boolean): void => {
  consented = answer === true;
};

/** `init()` options as the tag's data-* attributes would give them. */
export const fromOptions = (options: TrackerOptions): Config => {
  const result: Config = { api: options.api };
  if (options.website) result.website = options.website;
  if (options.referrerPolicy) result.referrerPolicy = options.referrerPolicy;
  if (options.keepQuery)
    result.keepQuery = options.keepQuery === '*' ? '*' : options.keepQuery.join(',');
  if (options.hash) result.hash = '';
  if (options.respectDnt === false) result.respectDnt = 'false';
  if (options.trackAutomation) result.trackAutomation = '';
  if (options.trackLocalhost) result.trackLocalhost = '';
  if (options.exclude?.length) result.exclude = options.exclude.join(',');
  if (options.debug) result.debug = '';
  if (options.consent === 'required') result.consent = '';
  return result;
};
