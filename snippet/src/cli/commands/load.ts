// `sitebeam load MODEL [--wait]`: asks the instance to start loading a model. The service answers
// 202 and loads in the background; it has no way to say when a model is ready, so there is
// nothing to wait for: --wait says so instead of polling forever.
import { SitebeamApiError } from '../../client/index.js';
import { CliError, exitCodes } from '../exit-codes.js';
import type { Session } from '../session.js';

export interface LoadOptions {
  wait?: boolean;
}

export async function loadModel(session: Session, model: string, options: LoadOptions) {
  session.model = model;
  const { client } = await session.connect(true);
  try {
    await client.loadModel(model);
  } catch (error) {
    // A release without the AI API (cwcloud-api CE 3.16.15) has no load route at all: FastAPI's own
    // 404 {"detail":"Not Found"}, where a model the instance does not know is cwai_model_notfound.
    if (error instanceof SitebeamApiError && error.status === 404 && error.code === 'http_404') {
      throw new CliError(
        `this instance has no AI API (its release has no route to load a model: 404 ${error.message})`,
        exitCodes.emailOff,
      );
    }
    throw error;
  }
  const started = `${model}: loading started in the background`;
  session.answer(
    options.wait
      ? `${started}; the instance does not report when a model is ready, so --wait cannot wait: the first prompt to ${model} waits for it`
      : `${started}; the first prompt to ${model} waits until it is ready`,
  );
}
