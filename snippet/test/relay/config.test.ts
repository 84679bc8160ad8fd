import { describe, expect, it } from 'vitest';
import { configFromEnv, endpointConfigFromEnv, resolveConfig } from '../../src/relay/config.js';
import { refusalOf } from './config-refusal.js';

const env = {
  SITEBEAM_API_URL: 'https://api.example',
  SITEBEAM_API_TOKEN: 'secret-token',
  SITEBEAM_CONTACT_TO: 'owner@shop.example',
  SITEBEAM_CONTACT_FROM: 'forms@shop.example',
  SITEBEAM_ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example/',
  SITEBEAM_SITE_NAME: 'Example Shop',
};

const refusal = (variables: Record<string, string | undefined>) =>
  refusalOf(() => configFromEnv(variables));

describe('configFromEnv', () => {
  it('reads every variable, with the defaults for the optional ones', () => {
    const config = configFromEnv(env);
    expect(config).toMatchObject({
      apiUrl: 'https://api.example',
      apiToken: 'secret-token',
      contactTo: 'owner@shop.example',
      contactFrom: 'forms@shop.example',
      allowedOrigins: ['https://shop.example', 'https://www.shop.example/'],
      siteName: 'Example Shop',
    });
    const resolved = resolveConfig(config);
    expect(resolved.allowedOrigins).toEqual(['https://shop.example', 'https://www.shop.example']);
    expect(resolved.rateLimit).toBe(5);
    expect(resolved.rateLimitWindowS).toBe(60);
    expect(resolved.trustedProxyHops).toBe(1);
    expect(resolved.minFillMs).toBe(3000);
    expect(resolved.redirectUrl).toBeUndefined();
    expect(resolved.publicUrl).toBeUndefined();
  });

  for (const variable of Object.keys(env)) {
    it(`names ${variable} when it is missing or blank`, () => {
      expect(refusal({ ...env, [variable]: undefined })).toBe(`${variable} is not set`);
      expect(refusal({ ...env, [variable]: '  ' })).toBe(`${variable} is not set`);
    });
  }

  it('refuses an instance URL the token could leak through: plain http to another host, a path, a query, user info', () => {
    expect(refusal({ ...env, SITEBEAM_API_URL: 'http://api.example' })).toMatch(
      /^SITEBEAM_API_URL must use https/,
    );
    for (const leaky of [
      'https://api.example/x?',
      'https://api.example/base',
      'https://user:pw@api.example',
      'https://api.example/#x',
    ]) {
      expect(refusal({ ...env, SITEBEAM_API_URL: leaky })).toMatch(/^SITEBEAM_API_URL must/);
    }
    expect(() =>
      configFromEnv({ ...env, SITEBEAM_API_URL: 'http://127.0.0.1:8787' }),
    ).not.toThrow();
    expect(() =>
      configFromEnv({ ...env, SITEBEAM_API_URL: 'http://localhost:8787/' }),
    ).not.toThrow();
  });

  it('names the variable holding a malformed value', () => {
    expect(refusal({ ...env, SITEBEAM_API_URL: 'api.example' })).toMatch(
      /^SITEBEAM_API_URL must be/,
    );
    expect(refusal({ ...env, SITEBEAM_CONTACT_TO: 'a@x.example, b@x.example' })).toMatch(
      /^SITEBEAM_CONTACT_TO must be one email address/,
    );
    expect(refusal({ ...env, SITEBEAM_CONTACT_TO: 'owner@example.test' })).toMatch(
      /^SITEBEAM_CONTACT_TO is at \.test, a special-use domain the instance refuses/,
    );
    expect(refusal({ ...env, SITEBEAM_CONTACT_FROM: 'forms@shop.LOCAL' })).toMatch(
      /^SITEBEAM_CONTACT_FROM is at \.local, a special-use domain/,
    );
    expect(refusal({ ...env, SITEBEAM_ALLOWED_ORIGINS: 'shop.example' })).toMatch(
      /^SITEBEAM_ALLOWED_ORIGINS must be/,
    );
    expect(refusal({ ...env, SITEBEAM_RATE_LIMIT_PER_MINUTE: 'lots' })).toBe(
      'SITEBEAM_RATE_LIMIT_PER_MINUTE must be a whole number',
    );
    expect(refusal({ ...env, SITEBEAM_RATE_LIMIT_PER_MINUTE: '0' })).toMatch(
      /^SITEBEAM_RATE_LIMIT_PER_MINUTE must be a whole number of at least 1/,
    );
  });

  it('reads SITEBEAM_RATE_LIMIT_PER_MINUTE, the former name, as a count per 60 seconds', () => {
    const config = configFromEnv({
      ...env,
      SITEBEAM_RATE_LIMIT_PER_MINUTE: '20',
      SITEBEAM_RATE_LIMIT_WINDOW_S: '3600',
    });
    expect(resolveConfig(config)).toMatchObject({ rateLimit: 20, rateLimitWindowS: 60 });
    expect(
      refusal({ ...env, SITEBEAM_RATE_LIMIT_PER_MINUTE: '20', SITEBEAM_RATE_LIMIT: '10' }),
    ).toMatch(/^SITEBEAM_RATE_LIMIT_PER_MINUTE is the former name of SITEBEAM_RATE_LIMIT/);
  });

  it('reads the optional tuning variables', () => {
    const config = configFromEnv({
      ...env,
      SITEBEAM_RATE_LIMIT: '20',
      SITEBEAM_RATE_LIMIT_WINDOW_S: '600',
      SITEBEAM_TRUSTED_PROXY_HOPS: '2',
      SITEBEAM_TICKET_SECRET: 'a long random secret',
      SITEBEAM_MIN_FILL_MS: '0',
      SITEBEAM_REDIRECT_URL: 'https://shop.example/contact',
      SITEBEAM_CLIENT_IP_HEADER: 'CF-Connecting-IP',
    });
    expect(resolveConfig(config)).toMatchObject({
      rateLimit: 20,
      rateLimitWindowS: 600,
      trustedProxyHops: 2,
      ticketSecret: 'a long random secret',
      minFillMs: 0,
      redirectUrl: 'https://shop.example/contact',
      clientIpHeader: 'cf-connecting-ip',
    });
  });

  it('reads SITEBEAM_PUBLIC_URL as an origin, for the contact form and the chat alike', () => {
    for (const [value, origin] of [
      ['https://relay.example.com/', 'https://relay.example.com'],
      ['https://Relay.Example.com:443', 'https://relay.example.com'],
      ['https://relay.example.com:8443', 'https://relay.example.com:8443'],
      ['http://localhost:8788', 'http://localhost:8788'],
      ['http://127.0.0.1:8788', 'http://127.0.0.1:8788'],
    ]) {
      const variables = { ...env, SITEBEAM_PUBLIC_URL: value };
      expect(resolveConfig(configFromEnv(variables)).publicUrl, value).toBe(origin);
      expect(endpointConfigFromEnv(variables).publicUrl, value).toBe(value);
    }
  });

  it('refuses a SITEBEAM_PUBLIC_URL that is not an https origin, naming it', () => {
    for (const value of [
      'relay.example.com',
      'ftp://relay.example.com',
      'https://relay.example.com/contact',
      'https://relay.example.com/?',
      'https://relay.example.com/#top',
      'https://user@relay.example.com',
    ]) {
      expect(refusal({ ...env, SITEBEAM_PUBLIC_URL: value }), value).toMatch(
        /^SITEBEAM_PUBLIC_URL must be an (http\(s\) URL|origin \(scheme:\/\/host\[:port\]\))/,
      );
    }
    expect(refusal({ ...env, SITEBEAM_PUBLIC_URL: 'http://relay.example.com' })).toMatch(
      /^SITEBEAM_PUBLIC_URL must use https/,
    );
    const { SITEBEAM_CONTACT_TO: _, ...chatOnly } = env;
    expect(() =>
      endpointConfigFromEnv({ ...chatOnly, SITEBEAM_PUBLIC_URL: 'http://relay.example.com' }),
    ).toThrow(/^SITEBEAM_PUBLIC_URL must use https/);
  });

  it('refuses a site name that would break the subject line', () => {
    expect(refusal({ ...env, SITEBEAM_SITE_NAME: 'Shop\r\nBcc: x@evil.example' })).toBe(
      'SITEBEAM_SITE_NAME must be one non-empty line',
    );
  });
});
