// `sitebeam chat MODEL`: one prompt per line, each answer printed line by line with its score,
// until Ctrl-D. Piped lines work too, without the "> " prompt.
import { createInterface } from 'node:readline';
import { errorCodes, type PromptSettings, type SitebeamClient } from '../../client/index.js';
import { isApiError } from '../exit-codes.js';
import { explainApiError } from '../explain.js';
import { type Session, warn } from '../session.js';
import { formatAnswer, promptMessageProblem } from './prompt.js';

export async function chat(
  session: Session,
  model: string,
  options: { set?: PromptSettings },
): Promise<void> {
  session.model = model;
  const { client, instance } = await session.connect(true);
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const lines = createInterface({
    input: process.stdin,
    output: interactive ? process.stdout : undefined,
    terminal: interactive,
    prompt: '> ',
  });
  if (interactive) {
    process.stderr.write(
      `Chatting with ${model} on ${instance.url}: one prompt per line, Ctrl-D to leave.\n`,
    );
    lines.prompt();
  }
  try {
    for await (const line of lines) {
      await answerLine(line, { session, client, model, settings: options.set ?? {} });
      if (interactive) lines.prompt();
    }
  } finally {
    lines.close();
  }
  if (interactive) process.stdout.write('\n');
}

interface Conversation {
  session: Session;
  client: SitebeamClient;
  model: string;
  settings: PromptSettings;
}

async function answerLine(line: string, { session, client, model, settings }: Conversation) {
  const problem = promptMessageProblem(line);
  if (problem !== undefined) {
    if (line.trim() !== '') warn(problem);
    return;
  }
  try {
    session.answer(formatAnswer(await client.prompt({ model, message: line, settings })));
  } catch (error) {
    if (!isApiError(error) || !canGoOn(error.status, error.code)) throw error;
    warn(explainApiError(error, { model }));
  }
}

/** What the next line may not run into again: a limit, a loading model, a refused message. */
function canGoOn(status: number, code: string): boolean {
  return status === 429 || status === 400 || code === errorCodes.modelLoading;
}
