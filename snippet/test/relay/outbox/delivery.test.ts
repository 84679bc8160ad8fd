// What every store of the relay's outbox does with a try's outcome: the contract's passing statuses,
// backoff with jitter and Retry-After, the lifetime, the early stop, the breaker, the drain.
import { describe, expect, it } from 'vitest';
import { outboxDefaults, SitebeamApiError } from '../../../src/client/index.js';
import {
  createBreaker,
  createDelivery,
  createRecoveryWatch,
  createRunGuard,
  decide,
  expiredDecision,
  outcomeOf,
  retryDelayMs,
} from '../../../src/relay/outbox/delivery.js';
import type { OutboxRecord, TryOutcome } from '../../../src/relay/outbox/outbox.js';
import { resolveOutboxSettings } from '../../../src/relay/outbox/settings.js';

const settings = resolveOutboxSettings();
const apiError = (
  status: number,
  extra: Partial<ConstructorParameters<typeof SitebeamApiError>[0]> = {},
) => new SitebeamApiError({ status, code: `http_${status}`, message: 'fault', ...extra });
const record: OutboxRecord = {
  id: 'a',
  mail: { to: 'owner@shop.example', subject: '[Shop] Hi', content: '<p>Hi</p>' },
  acceptedAt: 1_000_000,
  tries: 1,
};
const passing = (status: number, retryAfterS?: number): TryOutcome => ({
  kind: 'passing',
  status,
  error: `answered ${status}`,
  instanceDown: status !== 500,
  ...(retryAfterS === undefined ? {} : { retryAfterS }),
});

describe('the outbox delivery rules', () => {
  it('keeps what the contract calls passing, and refuses the rest for good', () => {
    for (const status of [0, 408, 429, 500, 502, 503, 504]) {
      expect(outcomeOf(apiError(status), 'secret-token').kind, String(status)).toBe('passing');
    }
    for (const status of [400, 401, 403, 404, 413, 422]) {
      expect(outcomeOf(apiError(status), 'secret-token').kind, String(status)).toBe('refused');
    }
    // A 500 may be this mail's own fault; a 503 or no answer is the instance's.
    expect(outcomeOf(apiError(500), 'secret-token')).toMatchObject({ instanceDown: false });
    expect(outcomeOf(apiError(503), 'secret-token')).toMatchObject({ instanceDown: true });
    expect(outcomeOf(new TypeError('boom'), 'secret-token')).toMatchObject({
      kind: 'passing',
      status: 0,
    });
  });

  it('says the failure in words, with Retry-After, and never the token', () => {
    const outcome = outcomeOf(
      apiError(503, { retryAfterSeconds: 120, cid: 'c-1', message: 'token tok-123 refused' }),
      'tok-123',
    );
    expect(outcome).toMatchObject({ kind: 'passing', status: 503, retryAfterS: 120 });
    expect(outcome.error).toBe(
      'the instance answered 503 http_503: token [token] refused (cid c-1)',
    );
    const refused = new SitebeamApiError({
      status: 0,
      code: 'network_error',
      message: 'http://127.0.0.1:9 could not be reached',
      cause: new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(outcomeOf(refused, 'secret-token').error).toBe(
      'http://127.0.0.1:9 could not be reached (ECONNREFUSED)',
    );
  });

  it('backs off from about 30 s (half to all of it), doubling up to an hour, never before Retry-After', () => {
    const low = () => 0;
    const high = () => 1;
    expect(settings.firstRetryS).toBe(outboxDefaults.firstRetryS);
    expect(retryDelayMs(1, undefined, settings, low)).toBe(15_000);
    expect(retryDelayMs(1, undefined, settings, high)).toBe(30_000);
    expect(retryDelayMs(2, undefined, settings, high)).toBe(60_000);
    expect(retryDelayMs(20, undefined, settings, high)).toBe(3_600_000);
    expect(retryDelayMs(20, undefined, settings, low)).toBe(1_800_000);
    expect(retryDelayMs(1, 600, settings, low)).toBe(600_000);
    expect(retryDelayMs(1, 10 ** 9, settings, low)).toBe(outboxDefaults.retryAfterMaxS * 1000);
    const spread = new Set(Array.from({ length: 50 }, () => retryDelayMs(1, undefined, settings)));
    expect(spread.size).toBeGreaterThan(10);
  });

  it('deletes what was sent, waits after a passing failure, gives up a refusal at once', () => {
    expect(decide(record, { kind: 'sent' }, 2_000_000, settings)).toEqual({ action: 'delete' });
    const waiting = decide(record, passing(503), 2_000_000, settings);
    expect(waiting).toMatchObject({
      action: 'wait',
      record: { tries: 2, lastError: 'answered 503' },
    });
    const refused = decide(
      record,
      { kind: 'refused', status: 422, error: 'bad to' },
      2_000_000,
      settings,
    );
    expect(refused).toMatchObject({
      action: 'give_up',
      givenUpAt: 2_000_000,
      record: { tries: 2, lastError: 'refused for good: bad to' },
    });
  });

  it('gives a message up before sending once its 72 hours are over, counted from a retry when there was one', () => {
    const lifetime = settings.lifetimeHours * 3_600_000;
    expect(settings.lifetimeHours).toBe(72);
    expect(expiredDecision(record, record.acceptedAt + lifetime - 1, settings)).toBeUndefined();
    expect(expiredDecision(record, record.acceptedAt + lifetime, settings)).toMatchObject({
      action: 'give_up',
      record: { lastError: 'not delivered within 72 hours' },
    });
    const retried = { ...record, retriedAt: record.acceptedAt + lifetime };
    expect(expiredDecision(retried, record.acceptedAt + lifetime + 1, settings)).toBeUndefined();
    // The next try is never after the deadline: the message is given up on time.
    const late = decide(
      record,
      passing(503, 10 ** 6),
      record.acceptedAt + lifetime - 1000,
      settings,
    );
    expect(late).toMatchObject({ action: 'wait', nextTryAt: record.acceptedAt + lifetime });
  });

  it('stops a run after three failures of the same kind in a row, not after mixed ones', () => {
    const guard = createRunGuard(settings);
    expect([passing(503), passing(500), passing(503)].map((o) => guard.stop(o))).toEqual([
      false,
      false,
      false,
    ]);
    expect([passing(503), passing(503)].map((o) => guard.stop(o))).toEqual([false, true]);
    const another = createRunGuard(settings);
    expect(
      [passing(0), { kind: 'sent' } as const, passing(0), passing(0)].map((o) => another.stop(o)),
    ).toEqual([false, false, false, false]);
  });

  it('drains once the instance takes mail after being down, not after one mail’s own 500', () => {
    const watch = createRecoveryWatch();
    expect(watch.recovered({ kind: 'sent' })).toBe(false);
    expect(watch.recovered(passing(500))).toBe(false);
    expect(watch.recovered({ kind: 'sent' })).toBe(false);
    expect(watch.recovered(passing(503))).toBe(false);
    expect(watch.recovered({ kind: 'sent' })).toBe(true);
    expect(watch.recovered({ kind: 'sent' })).toBe(false);
  });

  it('opens the breaker for 30 s after a send without an answer; a success closes it', () => {
    const breaker = createBreaker(settings);
    breaker.note(passing(503), 0);
    expect(breaker.openFor(0)).toBe(0);
    breaker.note(passing(0), 1_000);
    expect(breaker.openFor(1_000)).toBe(30_000);
    expect(breaker.openFor(31_000)).toBe(0);
    breaker.note(passing(0), 40_000);
    breaker.note({ kind: 'sent' }, 41_000);
    expect(breaker.openFor(41_000)).toBe(0);
  });

  it('counts a success answer the contract does not allow as sent: sending again would double it', async () => {
    const lines: string[] = [];
    const delivery = createDelivery({
      apiUrl: 'https://api.example',
      apiToken: 'tok',
      apiTimeoutMs: 1_000,
      log: (line) => lines.push(line),
      settings,
      fetch: async () => Response.json({ surprise: true }),
    });
    expect(await delivery.send(record.mail)).toEqual({ kind: 'sent' });
    expect(lines.join('\n')).toContain('took a mail but answered');
  });
});
