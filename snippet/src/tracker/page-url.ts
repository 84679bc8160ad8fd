// The page URL a view reports: origin and path, with only the query parameters the site keeps.
// Reset-password and magic-link tokens, e-mail addresses… live in query strings; the campaign
// parameters are what analytics needs by default.
import { config } from './config.js';
import { listPattern } from './pattern.js';

/** The parameter names kept (`data-keep-query`, `*` for all), default the campaign parameters. */
export const keptQuery = (): RegExp =>
  listPattern(
    'keepQuery' in config
      ? (config.keepQuery as string)
      : 'utm_source,utm_medium,utm_campaign,utm_term,utm_content',
  );

/** The page's URL without its fragment and without the query parameters the site does not keep. */
export const pageUrl = (): string => {
  const kept = keptQuery();
  return (
    location.href.split(/[?#]/)[0] +
    location.search
      .replace(/[?&]([^&=]*)[^&]*/g, (pair, name) => (kept.test(name) ? pair : ''))
      .replace(/^&/, '?')
  );
};
