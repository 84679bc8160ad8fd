import { inflateSync } from 'node:zlib';
import { answerShapes, geoInfoFields, type TrackerRecord } from 'sitebeam/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { transparentPixel } from '../src/tracker/pixel.js';
import { expectContractError, startTestStub, UUID_V4, useTestStub } from './helpers.js';

const stub = useTestStub();
beforeEach(async () => {
  await stub.request('/__stub/visits', { method: 'DELETE' });
  stub.visitLines.length = 0;
});

const visits = async () =>
  ((await (await stub.request('/__stub/visits')).json()) as { visits: TrackerRecord[] }).visits;

/** The record's members, as the contract names them. */
const RECORD_FIELDS = Object.keys(answerShapes.tracker.fields);

describe('GET /v1/tracker/json/{website}', () => {
  it('answers the full record, keeps it and writes it as one JSON line to the log stream', async () => {
    const response = await stub.request('/v1/tracker/json/example.com', {
      headers: {
        'user-agent':
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        referer: 'https://example.com/pricing?plan=pro',
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const record = (await response.json()) as TrackerRecord;
    expect(Object.keys(record).sort()).toEqual([...RECORD_FIELDS].sort());
    expect(Object.keys(record.infos).sort()).toEqual(
      expect.arrayContaining([...geoInfoFields].sort()),
    );
    expect(record).toMatchObject({
      status: 'ok',
      type: 'tracker',
      level: 'INFO',
      host: '127.0.0.1',
      os: 'macos',
      device: 'computer',
      browser: 'safari',
      details: { brand: 'apple', type: 'macos' },
      referrer: 'https://example.com/pricing?plan=pro',
      website: 'example.com',
      infos: { status: 'ko', status_code: 404, ip: '127.0.0.1', version: 'IPv4' },
    });
    expect(record.infos.reason).toMatch(/loopback/);
    expect(record.cid).toMatch(UUID_V4);
    expect(record.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(Math.abs(Date.parse(`${record.time}Z`) - Date.now())).toBeLessThan(5000);

    expect(await visits()).toEqual([record]);
    expect(stub.visitLines).toHaveLength(1);
    expect(stub.visitLines[0]?.endsWith('\n')).toBe(true);
    expect(JSON.parse(stub.visitLines[0] ?? '')).toEqual(record);
  });

  it('reports None for no referrer and unknown for no user agent', async () => {
    const record = (await (
      await fetch(`${stub.url}/v1/tracker/json/x`, { headers: { 'user-agent': '' } })
    ).json()) as TrackerRecord;
    expect(record.referrer).toBe('None');
    expect(record.user_agent).toBe('unknown');
    expect(record).toMatchObject({ os: 'unknown', device: 'unknown', browser: 'unknown' });
  });

  it.each([
    ['a space', 'my site', 'my%20site'],
    ['unicode', 'café.example ü', encodeURIComponent('café.example ü')],
    ['255 characters', 'w'.repeat(255), 'w'.repeat(255)],
    ['255 unicode characters', 'é'.repeat(255), encodeURIComponent('é'.repeat(255))],
  ])('decodes a website with %s', async (_case, website, encoded) => {
    const record = (await (
      await stub.request(`/v1/tracker/json/${encoded}`)
    ).json()) as TrackerRecord;
    expect(record.website).toBe(website);
  });

  it('answers 404 for a website with a "/", as the service (which decodes the path first) does', async () => {
    await expectContractError(await stub.request('/v1/tracker/json/a%2Fb'), 404, 'not_found');
  });

  it.each([
    ['empty', '/v1/tracker/json/'],
    ['over 255 characters', `/v1/tracker/json/${'w'.repeat(256)}`],
    ['empty (pixel)', '/v1/tracker/img/'],
    ['over 255 characters (pixel)', `/v1/tracker/img/${'w'.repeat(256)}`],
  ])(
    'answers 400 invalid_website when %s, with CORS headers, recording nothing',
    async (_case, path) => {
      const response = await stub.request(path);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      await expectContractError(response, 400, 'invalid_website');
      expect(await visits()).toHaveLength(0);
    },
  );

  it('answers 400 invalid_website for a badly percent-encoded website', async () => {
    const response = await stub.request('/v1/tracker/json/%E0%A4%A');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    await expectContractError(response, 400, 'invalid_website');
  });

  it('answers HEAD without a body and without recording a visit', async () => {
    const response = await stub.request('/v1/tracker/json/example.com', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe('');
    expect(await visits()).toHaveLength(0);
  });

  it('answers a CORS pre-flight', async () => {
    const response = await stub.request('/v1/tracker/json/example.com', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-requested-with',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
    expect(response.headers.get('access-control-allow-headers')).toBe('x-requested-with');
    expect(await visits()).toHaveLength(0);
  });
});

describe('GET /v1/tracker/img/{website}', () => {
  it('answers a 1×1 transparent PNG of at most 70 bytes and records the same visit', async () => {
    const response = await stub.request('/v1/tracker/img/example.com', {
      headers: { referer: 'https://example.com/' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png).toEqual(transparentPixel);
    expect(png.length).toBeLessThanOrEqual(70);
    const [visit] = await visits();
    expect(visit).toMatchObject({
      website: 'example.com',
      referrer: 'https://example.com/',
      type: 'tracker',
    });
  });

  it('the pixel is a valid 1×1 PNG whose only pixel has alpha 0', () => {
    const png = transparentPixel;
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(1);
    expect(png.readUInt32BE(20)).toBe(1);
    expect(png[25]).toBe(4); // grayscale + alpha, 8 bits
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    const scanline = inflateSync(png.subarray(41, 41 + idatLength));
    expect(scanline).toHaveLength(3); // filter byte, gray, alpha
    expect(scanline[2]).toBe(0);
  });

  it('answers HEAD with the PNG headers only', async () => {
    const response = await stub.request('/v1/tracker/img/example.com', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(await visits()).toHaveLength(0);
  });
});

describe('client address', () => {
  it('ignores proxy headers unless the stub trusts a proxy', async () => {
    const record = (await (
      await stub.request('/v1/tracker/json/x', {
        headers: { 'x-forwarded-for': '8.8.8.8', 'x-real-ip': '8.8.4.4' },
      })
    ).json()) as TrackerRecord;
    expect(record.host).toBe('127.0.0.1');
  });

  it('behind a trusted proxy believes X-Real-IP, then the first X-Forwarded-For entry', async () => {
    const proxied = await startTestStub({ trustProxy: true });
    try {
      const host = async (headers: Record<string, string>) =>
        (
          (await (await proxied.request('/v1/tracker/json/x', { headers })).json()) as {
            host: string;
          }
        ).host;
      expect(await host({ 'x-real-ip': '8.8.4.4', 'x-forwarded-for': '1.1.1.1' })).toBe('8.8.4.4');
      expect(await host({ 'x-forwarded-for': '9.9.9.9, 10.0.0.1' })).toBe('9.9.9.9');
      expect(await host({ 'x-real-ip': '::ffff:8.8.8.8' })).toBe('8.8.8.8');
      expect(await host({ 'x-forwarded-for': 'not-an-address' })).toBe('127.0.0.1');
    } finally {
      await proxied.close();
    }
  });
});
