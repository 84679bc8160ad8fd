// `sitebeam chat MODEL`: one prompt per line, each answer printed line by line with its score,
// until Ctrl-D. Piped lines work too, without the "> " prompt.
import { createInterface } from 'node:readline';
import { errorCodes, type PromptSettings, type SitebeamClient } from '../../client/index.js';
import { type ExitCode, exitCodeFor, exitCodes, isApiError } from '../exit-codes.js';
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
    // Ctrl-C interrupts, as in any shell command: 130 = 128 + SIGINT, unlike Ctrl-D's 0.
    lines.on('SIGINT', () => {
      process.stdout.write('\n');
      process.exit(130);
    });
    process.stderr.write(
      `Chatting with ${model} on ${instance.url}: one prompt per line, Ctrl-D to leave.\n`,
    );
    lines.prompt();
  }
  const conversation = { session, client, model, settings: options.set ?? {} };
  let lastFailure: ExitCode | undefined;
  try {
    for await (const line of lines) {
      const failure = await answerLine(line, conversation);
      lastFailure = failure ?? lastFailure;
      if (interactive) lines.prompt();
    }
  } finally {
    lines.close();
  }
  if (interactive) process.stdout.write('\n');
  // A script piping lines learns that some went unanswered.
  if (lastFailure !== undefined) process.exitCode = lastFailure;
}

interface Conversation {
  session: Session;
  client: SitebeamClient;
  model: string;
  settings: PromptSettings;
}

/** Answers one line; a failure the next line may not meet again is told and its code returned. */
async function answerLine(
  line: string,
  { session, client, model, settings }: Conversation,
): Promise<ExitCode | undefined> {
  const problem = promptMessageProblem(line);
  if (problem !== undefined) {
    if (line.trim() === '') return undefined;
    warn(problem);
    return exitCodes.usage;
  }
  try {
    session.answer(formatAnswer(await client.prompt({ model, message: line, settings })));
    return undefined;
  } catch (error) {
    if (!isApiError(error) || !canGoOn(error.status, error.code)) throw error;
    warn(explainApiError(error, { model }));
    return exitCodeFor(error);
  }
}

/** What the next line may not run into again: a limit, a loading model, a refused message. */
function canGoOn(status: number, code: string): boolean {
  return status === 429 || status === 400 || code === errorCodes.modelLoading;
}
