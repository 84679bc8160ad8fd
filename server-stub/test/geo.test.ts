import { describe, expect, it } from 'vitest';
import { utcOffset } from '../src/tracker/geo.js';
import { useTestStub } from './helpers.js';

const stub = useTestStub({ trustProxy: true });

const infosFor = async (ip: string) =>
  (
    (await (
      await stub.request('/v1/tracker/json/geo.test', { headers: { 'x-real-ip': ip } })
    ).json()) as {
      infos: Record<string, unknown>;
    }
  ).infos;

describe('infos: offline location of the client address', () => {
  it('8.8.8.8 is Google in the US', async () => {
    expect(await infosFor('8.8.8.8')).toMatchObject({
      status: 'ok',
      status_code: 200,
      country_iso: 'US',
      lookup: 'USA',
      currency: 'USD',
      asn: 'AS15169',
      org: 'Google LLC',
      ip: '8.8.8.8',
      version: 'IPv4',
      network: '8.8.8.0/24',
    });
  });

  it('a public IPv6 address is located', async () => {
    const infos = await infosFor('2a00:1450:4001:82b::200e');
    expect(infos).toMatchObject({
      status: 'ok',
      status_code: 200,
      country_iso: 'DE',
      lookup: 'DEU',
      currency: 'EUR',
      asn: 'AS15169',
      version: 'IPv6',
    });
    expect(infos.network).toMatch(/^2a00:1450:4001::\/\d+$/);
    expect(infos.timezone).toBe('Europe/Berlin');
    expect(infos.utc_offset).toMatch(/^\+0[12]00$/);
    expect(infos.loc).toMatch(/^-?\d+\.\d+,-?\d+\.\d+$/);
  });

  it('a UK address has a city, region, timezone and GBP', async () => {
    expect(await infosFor('81.2.69.160')).toMatchObject({
      city: 'Bracknell',
      region: 'England',
      country: 'United Kingdom',
      country_iso: 'GB',
      lookup: 'GBR',
      currency: 'GBP',
      timezone: 'Europe/London',
    });
  });

  it.each([
    ['10.1.2.3', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['169.254.1.1', 'linkLocal'],
  ])('%s is a %s address: ko / 404 with a reason', async (ip, range) => {
    const infos = await infosFor(ip);
    expect(infos).toMatchObject({
      status: 'ko',
      status_code: 404,
      ip,
      country: 'unknown',
      asn: 'unknown',
    });
    expect(infos.reason).toContain(range);
  });

  it('utc_offset follows daylight saving at the time of the visit', () => {
    expect(utcOffset('Europe/Paris', new Date('2024-01-15T12:00:00Z'))).toBe('+0100');
    expect(utcOffset('Europe/Paris', new Date('2024-07-15T12:00:00Z'))).toBe('+0200');
    expect(utcOffset('America/New_York', new Date('2024-01-15T12:00:00Z'))).toBe('-0500');
    expect(utcOffset('Asia/Kolkata', new Date('2024-01-15T12:00:00Z'))).toBe('+0530');
    expect(utcOffset('UTC', new Date())).toBe('+0000');
  });
});
