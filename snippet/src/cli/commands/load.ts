// `sitebeam load MODEL [--wait]`: starts loading a model; with --wait, asks again until it is ready.
import type { ModelLoadResponse, SitebeamClient } from '../../client/index.js';
import { CliError, exitCodes, isApiError } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import type { Session } from '../session.js';

const pollMs = 1000;
// A Retry-After of 0 still leaves the instance a moment.
const minimumWaitMs = 250;

export interface LoadOptions {
  wait?: boolean;
  maxWait: number;
}

export async function loadModel(session: Session, model: string, options: LoadOptions) {
  session.model = model;
  const { client } = await session.connect(true);
  const started = Date.now();
  let answer = await client.loadModel(model);
  if (options.wait && answer.state !== 'ready') {
    const progress = startProgress(`Loading ${model}`);
    try {
      answer = await untilReady(session, client, model, options.maxWait);
    } finally {
      progress.stop();
    }
  }
  session.answer(describe(answer, Date.now() - started));
}

async function untilReady(
  session: Session,
  client: SitebeamClient,
  model: string,
  maxWaitSeconds: number,
): Promise<ModelLoadResponse> {
  const deadline = Date.now() + maxWaitSeconds * 1000;
  let waitMs = retryAfterMs(session.lastAnswer()?.headers.get('retry-after')) ?? pollMs;
  for (;;) {
    if (Date.now() + waitMs > deadline) {
      throw new CliError(
        `${model} is still loading after ${maxWaitSeconds} s (--max-wait)`,
        exitCodes.modelLoading,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    try {
      const answer = await client.loadModel(model);
      if (answer.state === 'ready') return answer;
      waitMs = retryAfterMs(session.lastAnswer()?.headers.get('retry-after')) ?? pollMs;
    } catch (error) {
      if (!isApiError(error) || error.status !== 429) throw error;
      waitMs = Math.max((error.retryAfterSeconds ?? 1) * 1000, minimumWaitMs);
    }
  }
}

function retryAfterMs(header: string | null | undefined): number | undefined {
  const seconds = Number(header ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0
    ? Math.max(seconds * 1000, minimumWaitMs)
    : undefined;
}

function describe(answer: ModelLoadResponse, elapsedMs: number): string {
  if (answer.state === 'ready') {
    return elapsedMs >= 1000
      ? `${answer.model} is ready (after ${Math.round(elapsedMs / 1000)} s)`
      : `${answer.model} is ready`;
  }
  return `${answer.model} is loading in the background: \`sitebeam load ${answer.model} --wait\` waits until it is ready`;
}
