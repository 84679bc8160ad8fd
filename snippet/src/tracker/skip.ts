// Why a view is not sent. Each reason is named after the option that overrides it.
import { config } from './config.js';
import { listPattern } from './pattern.js';
import { selfExcluded } from './self-exclusion.js';

type PrivacyNavigator = Navigator & { globalPrivacyControl?: boolean };

/** The page as dedupe and exclusion see it: the path, plus the hash in hash mode. */
export const currentPage = (): string =>
  location.pathname + ('hash' in config ? location.hash : '');

/** The reason this view must not be sent, or a falsy value when it may. */
export const skipReason = (): string | false | undefined =>
  (config.respectDnt !== 'false' &&
    (navigator.doNotTrack === '1' || (navigator as PrivacyNavigator).globalPrivacyControl) &&
    'respectDnt') ||
  (!('trackAutomation' in config) && navigator.webdriver && 'trackAutomation') ||
  // An empty hostname is a file: page.
  (!('trackLocalhost' in config) &&
    /^(localhost|127[\d.]+|\[::1\]|)$/.test(location.hostname) &&
    'trackLocalhost') ||
  (selfExcluded() && 'sitebeam_ignore') ||
  (config.exclude && listPattern(config.exclude).test(currentPage()) && 'exclude');
