// Who a visitor is for the rate limit: an IPv4 address, or an IPv6 /64 (one household or one
// server holds a whole /64). Behind trusted proxies the address comes from the header they set,
// read from the right: the entries left of the trusted hops are whatever the visitor wrote.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The rate-limit key of an address, or undefined when `text` is not exactly an IP address. */
export function visitorOf(text: string): string | undefined {
  const address = text.trim().replace(/^\[(.*)\]$/, '$1');
  if (IPV4.test(address)) return address;
  if (!address.includes(':') || !/^[0-9A-Fa-f:.]+$/.test(address)) return undefined;
  let hostname: string;
  try {
    // The URL parser is the web platform's IPv6 parser: it validates and canonicalises.
    hostname = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(hostname);
  if (mapped) {
    const high = Number.parseInt(mapped[1] as string, 16);
    const low = Number.parseInt(mapped[2] as string, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${expandIpv6(hostname).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(canonical: string): string[] {
  const [head = '', tail] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right];
}

/**
 * The visitor's key: the entry `trustedHops` from the right of the proxy header when it is an IP
 * address, else the connection's address, else one shared key (strict, not open).
 */
export function visitorKey(options: {
  header: string | null;
  trustedHops: number;
  connection: string | undefined;
}): string {
  if (options.header !== null) {
    const entries = options.header.split(',');
    const entry = entries[entries.length - options.trustedHops];
    const fromHeader = entry === undefined ? undefined : visitorOf(entry);
    if (fromHeader) return fromHeader;
  }
  return (options.connection && visitorOf(options.connection)) || 'unknown';
}
