import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../src/tracker/user-agent.js';

const cases: Array<[string, string, Record<string, unknown>]> = [
  [
    'Windows Chrome',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    {
      os: 'windows',
      device: 'computer',
      browser: 'chrome',
      details: { brand: 'unknown', type: 'windows' },
    },
  ],
  [
    'macOS Safari',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    {
      os: 'macos',
      device: 'computer',
      browser: 'safari',
      details: { brand: 'apple', type: 'macos' },
    },
  ],
  [
    'iPhone Safari',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    { os: 'ios', device: 'mobile', browser: 'safari', details: { brand: 'apple', type: 'iphone' } },
  ],
  [
    'Samsung Tizen smart TV',
    'Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36',
    {
      os: 'linux',
      device: 'smarttv',
      browser: 'samsung',
      details: { brand: 'samsung', type: 'smarttv' },
    },
  ],
  [
    'Samsung Tizen smart TV with Samsung Internet',
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 5.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.2 Chrome/63.0.3239.84 TV Safari/537.36',
    {
      os: 'linux',
      device: 'smarttv',
      browser: 'samsung',
      details: { brand: 'samsung', type: 'smarttv' },
    },
  ],
  [
    'an empty user agent',
    '',
    {
      os: 'unknown',
      device: 'unknown',
      browser: 'unknown',
      details: { brand: 'unknown', type: 'unknown' },
    },
  ],
  [
    'the text whatever',
    'whatever',
    {
      os: 'unknown',
      device: 'unknown',
      browser: 'unknown',
      details: { brand: 'unknown', type: 'unknown' },
    },
  ],
  [
    'an Android phone with Chrome',
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    {
      os: 'android',
      device: 'mobile',
      browser: 'chrome',
      details: { brand: 'samsung', type: 'android' },
    },
  ],
  [
    'a Pixel with Chrome',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    {
      os: 'android',
      device: 'mobile',
      browser: 'chrome',
      details: { brand: 'google', type: 'android' },
    },
  ],
  [
    'Samsung Internet on Android',
    'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
    {
      os: 'android',
      device: 'mobile',
      browser: 'samsung',
      details: { brand: 'samsung', type: 'android' },
    },
  ],
  [
    'an iPad',
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    { os: 'ios', device: 'tablet', browser: 'safari', details: { brand: 'apple', type: 'ipad' } },
  ],
  [
    'Googlebot',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    { os: 'unknown', device: 'bot', browser: 'unknown' },
  ],
  [
    'Googlebot smartphone',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    { os: 'android', device: 'bot', browser: 'chrome' },
  ],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
    { os: 'windows', device: 'computer', browser: 'edge' },
  ],
  [
    'Firefox on Linux',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    {
      os: 'linux',
      device: 'computer',
      browser: 'firefox',
      details: { brand: 'unknown', type: 'linux' },
    },
  ],
  [
    'Firefox on Ubuntu',
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    { os: 'linux', device: 'computer', browser: 'firefox' },
  ],
  [
    'Chrome on ChromeOS',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    { os: 'chromeos', device: 'computer', browser: 'chrome' },
  ],
  [
    'an LG webOS TV',
    'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 WebAppManager',
    { os: 'linux', device: 'smarttv', details: { brand: 'unknown', type: 'smarttv' } },
  ],
  [
    'Internet Explorer 11',
    'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
    { os: 'windows', device: 'computer', browser: 'ie' },
  ],
  [
    'Opera',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0',
    { os: 'windows', device: 'computer', browser: 'opera' },
  ],
  [
    'a PlayStation 5',
    'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15',
    { device: 'console', details: { brand: 'sony', type: 'console' } },
  ],
  [
    'a Galaxy Watch',
    'Mozilla/5.0 (Linux; Android 11; SM-R860) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.127 Mobile Safari/537.36',
    { os: 'android', device: 'wearable', details: { brand: 'samsung', type: 'wearable' } },
  ],
  ['curl', 'curl/8.5.0', { device: 'bot' }],
];

describe('describeUserAgent maps onto the contract vocabulary', () => {
  it.each(cases)('%s', (_name, userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toMatchObject(expected);
  });
});
