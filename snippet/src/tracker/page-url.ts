// The page URL a view reports: origin and path, with only the query parameters the site keeps.
// Reset-password and magic-link tokens, e-mail addresses… live in query strings; the campaign
// parameters are what analytics needs by default.
import { config } from './config.js';
import { listPattern } from './pattern.js';

/** The query string with only the parameters the site keeps (`data-keep-query`, `*` for all; by
 * default the campaign parameters). */
const keptQuery = (search: string): string => {
  const kept = listPattern(
    'keepQuery' in config
      ? (config.keepQuery as string)
      : 'utm_source,utm_medium,utm_campaign,utm_term,utm_content',
  );
  return search
    .replace(/[?&]([^&=]*)[^&]*/g, (pair, name) => (kept.test(name) ? pair : ''))
    .replace(/^&/, '?');
};

/** The page's URL without its fragment, and without the query parameters the site does not keep.
 * Most pages have no query string: then no pattern is built before the request. */
export const pageUrl = (): string =>
  location.href.split(/[?#]/)[0] + (location.search && keptQuery(location.search));
