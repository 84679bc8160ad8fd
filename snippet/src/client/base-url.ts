// Where an API token may be sent: an https origin, or plain http only to this machine.

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `::1` (with or without brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isLocalhostName(host)) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why a base URL cannot carry the token, or undefined when it can. It must be a bare origin (the
 * API's paths are the same on every instance, so a path, query, fragment or user info can only
 * misroute the token) and https unless it names this machine.
 */
export function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an https URL, not "${value}"`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'must use https (plain http is allowed only for localhost and 127.0.0.1)';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.search || value.includes('?')) return 'must not contain a query (?…)';
  if (url.hash || value.includes('#')) return 'must not contain a fragment (#…)';
  if (url.pathname !== '/')
    return `must be the instance's address without a path ("${url.origin}")`;
  return undefined;
}

/**
 * The origin requests really go to: `localhost` and `*.localhost` over plain http become
 * 127.0.0.1, as browsers resolve them, so no DNS server (whoever answers on the network) chooses
 * where the token goes in clear. Over https the certificate keeps the token safe; names stay.
 */
export function connectOrigin(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || !isLocalhostName(url.hostname.toLowerCase())) return url.origin;
  url.hostname = '127.0.0.1';
  return url.origin;
}
