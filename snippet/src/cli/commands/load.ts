// `sitebeam load MODEL [--wait]`: asks the instance to start loading a model. The service answers
// 202 and loads in the background; it has no way to say when a model is ready, so there is
// nothing to wait for: --wait says so instead of polling forever.
import type { Session } from '../session.js';

export interface LoadOptions {
  wait?: boolean;
}

export async function loadModel(session: Session, model: string, options: LoadOptions) {
  session.model = model;
  const { client } = await session.connect(true);
  await client.loadModel(model);
  const started = `${model}: loading started in the background`;
  session.answer(
    options.wait
      ? `${started}; the instance does not report when a model is ready, so --wait cannot wait: the first prompt to ${model} waits for it`
      : `${started}; the first prompt to ${model} waits until it is ready`,
  );
}
