// `sitebeam models`: the models the instance lists, one per line.
import type { Session } from '../session.js';

export async function listModels(session: Session): Promise<void> {
  const { client } = await session.connect(true);
  const { models } = await client.listModels();
  session.answer(models.length ? models.join('\n') : '(the instance lists no model)');
}
