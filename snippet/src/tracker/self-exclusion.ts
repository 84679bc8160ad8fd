// A visitor's own choice never to be counted on a site: the cookie `sitebeam_ignore=true`.
//
// Not localStorage: in Chromium the first localStorage read of a page is two synchronous round
// trips to the browser process (access check, then the whole map), 2–5 ms that would stand
// before the request on every load; document.cookie is one.

/**
 * The visitor sets it with `document.cookie = 'sitebeam_ignore=true; path=/; max-age=34560000'`.
 * Reading the cookie throws only in an opaque origin (a sandboxed frame), where nobody can have set it. */
export const selfExcluded = (): boolean | undefined => {
  try {
    return /(^|; )sitebeam_ignore=true(;|$)/.test(document.cookie);
  } catch {}
};
