// The one configuration of this page's tracker, set once by the tag or by `init()`.
import type { Config, TrackerOptions } from './options.js';

export let config: Config;

export const configure = (value: Config): void => {
  config = value;
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
  return result;
};
