// How a kept message is tried and what follows, the same for every store: which failures are
// passing (the contract's table), the retry's backoff with jitter and Retry-After, the lifetime,
// the early stop of a failing run, the circuit breaker, and the drain once the instance is back.
import { type EmailMessage, isPassingStatus, SitebeamApiError } from '../../client/index.js';
import { type InstanceSettings, instanceClient } from '../instance-client.js';
import type { OutboxDelivery, OutboxRecord, TryOutcome } from './outbox.js';
import type { ResolvedOutboxSettings } from './settings.js';

type Failure = Exclude<TryOutcome, { kind: 'sent' }>;

/** Answers that say the instance is down or busy, not that this mail is at fault. */
const instanceWideStatuses = new Set([0, 408, 429, 502, 503, 504]);

/**
 * What a failed send means for the outbox: passing (kept, tried again) or a refusal for good; in
 * words without `token`, should the instance have echoed it.
 */
export function outcomeOf(error: unknown, token: string): Failure {
  const failure = classify(error);
  return { ...failure, error: failure.error.split(token).join('[token]') };
}

function classify(error: unknown): Failure {
  if (!(error instanceof SitebeamApiError)) {
    return {
      kind: 'passing',
      status: 0,
      error: `sending failed unexpectedly: ${String(error)}`,
      instanceDown: true,
    };
  }
  const words = failureWords(error);
  if (!isPassingStatus(error.status))
    return { kind: 'refused', status: error.status, error: words };
  return {
    kind: 'passing',
    status: error.status,
    error: words,
    ...(error.retryAfterSeconds === undefined ? {} : { retryAfterS: error.retryAfterSeconds }),
    instanceDown: instanceWideStatuses.has(error.status),
  };
}

/** The failure in words for the owner: the instance's answer, or why none came. */
function failureWords(error: SitebeamApiError): string {
  if (error.status === 0) {
    const cause = (error.cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    return `${error.message}${typeof cause === 'string' ? ` (${cause})` : ''}`;
  }
  const cid = error.cid ? ` (cid ${error.cid})` : '';
  return `the instance answered ${error.status} ${error.code}: ${error.message}${cid}`;
}

/**
 * Milliseconds until try number `tries + 1`: the contract's backoff (about firstRetryS, doubling up
 * to maxRetryS, jitter from half of it to all of it), never before the instance's Retry-After.
 */
export function retryDelayMs(
  tries: number,
  retryAfterS: number | undefined,
  settings: Pick<ResolvedOutboxSettings, 'firstRetryS' | 'maxRetryS' | 'retryAfterMaxS'>,
  random: () => number = Math.random,
): number {
  const base = Math.min(settings.maxRetryS, settings.firstRetryS * 2 ** Math.max(0, tries - 1));
  const jittered = base * (0.5 + random() * 0.5);
  const floor = retryAfterS === undefined ? 0 : Math.min(retryAfterS, settings.retryAfterMaxS);
  return Math.round(Math.max(jittered, floor) * 1000);
}

/** When the message is given up: its lifetime after it was accepted, or after the owner's retry. */
export function deadlineOf(
  record: OutboxRecord,
  settings: Pick<ResolvedOutboxSettings, 'lifetimeHours'>,
): number {
  return (record.retriedAt ?? record.acceptedAt) + settings.lifetimeHours * 3_600_000;
}

/** What becomes of a message after a try, or before one. */
export type Decision =
  | { action: 'delete' }
  | { action: 'wait'; record: OutboxRecord; nextTryAt: number }
  | { action: 'give_up'; record: OutboxRecord; givenUpAt: number };

/** A message past its lifetime is given up before it is sent, not after one more failure. */
export function expiredDecision(
  record: OutboxRecord,
  now: number,
  settings: ResolvedOutboxSettings,
): Decision | undefined {
  if (now < deadlineOf(record, settings)) return undefined;
  const why = `not delivered within ${settings.lifetimeHours} hours`;
  return {
    action: 'give_up',
    record: { ...record, lastError: record.lastError ? `${why}; last: ${record.lastError}` : why },
    givenUpAt: now,
  };
}

export function decide(
  record: OutboxRecord,
  outcome: TryOutcome,
  now: number,
  settings: ResolvedOutboxSettings,
): Decision {
  if (outcome.kind === 'sent') return { action: 'delete' };
  const tried: OutboxRecord = { ...record, tries: record.tries + 1, lastError: outcome.error };
  if (outcome.kind === 'refused') {
    return {
      action: 'give_up',
      record: { ...tried, lastError: `refused for good: ${outcome.error}` },
      givenUpAt: now,
    };
  }
  const next = now + retryDelayMs(tried.tries, outcome.retryAfterS, settings);
  return { action: 'wait', record: tried, nextTryAt: Math.min(next, deadlineOf(record, settings)) };
}

/** A due message's try: what becomes of it, and the send's outcome unless it was given up unsent. */
export type Tried = { decision: Decision; outcome?: TryOutcome };

/**
 * Tries a due message, the same in every store: given up unsent once past its lifetime; otherwise
 * `claim`ed first (false: another worker has it, and nothing is sent), then sent and decided.
 */
export async function tryDue(
  record: OutboxRecord,
  delivery: OutboxDelivery,
  claim: () => Promise<boolean> = async () => true,
): Promise<Tried | undefined> {
  const expired = expiredDecision(record, Date.now(), delivery.settings);
  if (expired) return { decision: expired };
  if (!(await claim())) return undefined;
  const outcome = await delivery.send(record.mail);
  return { decision: decide(record, outcome, Date.now(), delivery.settings), outcome };
}

/** The log line of a decision: the message named by its id, never by what it says. */
export function decisionLine(id: string, decision: Decision, triesBefore: number): string {
  if (decision.action === 'delete') {
    return `sitebeam-relay: outbox: message ${id} delivered (try ${triesBefore + 1}).`;
  }
  if (decision.action === 'give_up') {
    return `sitebeam-relay: outbox: message ${id} given up: ${decision.record.lastError}.`;
  }
  const inS = Math.max(0, Math.round((decision.nextTryAt - Date.now()) / 1000));
  return `sitebeam-relay: outbox: message ${id} waits (try ${decision.record.tries} failed: ${decision.record.lastError}); next try in ${inS} s.`;
}

/** The log line of a run stopped early: the instance is down, not the mail. */
export const pausedLine = (settings: ResolvedOutboxSettings): string =>
  `sitebeam-relay: outbox: ${settings.stopAfterSameFailures} tries in a row failed the same way; delivery pauses ${settings.breakerS} s.`;

/**
 * A run over due messages stops after `stopAfterSameFailures` passing failures with the same
 * status in a row: the instance is then down, not the mail, and the rest waits for the breaker.
 */
export function createRunGuard(settings: Pick<ResolvedOutboxSettings, 'stopAfterSameFailures'>) {
  let lastStatus: number | undefined;
  let inARow = 0;
  return {
    /** Counts one outcome; true when the run should stop here. */
    stop(outcome: TryOutcome): boolean {
      if (outcome.kind !== 'passing') {
        lastStatus = undefined;
        inARow = 0;
        return false;
      }
      inARow = outcome.status === lastStatus ? inARow + 1 : 1;
      lastStatus = outcome.status;
      return inARow >= settings.stopAfterSameFailures;
    },
  };
}

/** Whether the instance, seen down, has just taken a mail again: then what waits is tried now. */
export function createRecoveryWatch() {
  let down = false;
  return {
    /** Counts one outcome; true once per recovery. */
    recovered(outcome: TryOutcome): boolean {
      if (outcome.kind === 'passing' && outcome.instanceDown) down = true;
      if (outcome.kind !== 'sent' || !down) return false;
      down = false;
      return true;
    },
  };
}

/**
 * After a send without an answer (refused connection, time-out), new mail goes straight to the
 * outbox for `breakerS` seconds: a hung instance costs one time-out, not one per visitor.
 */
export function createBreaker(settings: Pick<ResolvedOutboxSettings, 'breakerS'>) {
  let openUntil = 0;
  return {
    /** Milliseconds the breaker stays open from `now` (0: closed, try the instance). */
    openFor: (now: number) => Math.max(0, openUntil - now),
    note(outcome: TryOutcome, now: number) {
      if (outcome.kind === 'passing' && outcome.status === 0) {
        openUntil = now + settings.breakerS * 1000;
      } else if (outcome.kind === 'sent') openUntil = 0;
    },
  };
}

export interface DeliveryOptions extends InstanceSettings {
  log: (line: string) => void;
  settings: ResolvedOutboxSettings;
}

/** Sends through the API with the relay's own client; the token never appears in what it says. */
export function createDelivery(options: DeliveryOptions): OutboxDelivery {
  const client = instanceClient(options);
  return {
    settings: options.settings,
    log: options.log,
    async send(mail: EmailMessage): Promise<TryOutcome> {
      try {
        await client.sendEmail(mail);
        return { kind: 'sent' };
      } catch (error) {
        // A success answer the contract does not allow still means the instance took the mail:
        // sending it again would deliver it twice.
        if (error instanceof SitebeamApiError && error.status >= 200 && error.status < 300) {
          options.log(
            `sitebeam-relay: outbox: the instance took a mail but answered: ${error.message}`,
          );
          return { kind: 'sent' };
        }
        return outcomeOf(error, options.apiToken);
      }
    },
  };
}
