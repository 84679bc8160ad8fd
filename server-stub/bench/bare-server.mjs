// The baseline: node:http answering a fixed tracker-sized JSON body, nothing else.
import { createServer } from 'node:http';

const body = JSON.stringify({
  status: 'ok',
  type: 'tracker',
  time: '2024-12-19T20:06:02.556973',
  host: '8.8.8.8',
  user_agent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  os: 'windows',
  device: 'computer',
  browser: 'chrome',
  details: { brand: 'unknown', type: 'windows' },
  referrer: 'https://example.com/pricing',
  website: 'example.com',
  infos: {
    status: 'ok',
    status_code: 200,
    city: 'unknown',
    region: 'unknown',
    country: 'United States of America',
    region_code: 'unknown',
    country_iso: 'US',
    lookup: 'USA',
    timezone: 'America/Chicago',
    utc_offset: '-0600',
    currency: 'USD',
    asn: 'AS15169',
    org: 'Google LLC',
    ip: '8.8.8.8',
    network: '8.8.8.0/24',
    version: 'IPv4',
    hostname: 'unknown',
    loc: '37.7510,-97.8220',
  },
  level: 'INFO',
  cid: '2145813d-cc8f-4bfe-9539-268c273fa553',
});

const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json',
    'access-control-allow-origin': '*',
    'cache-control': 'no-store',
  });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`bare server listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
