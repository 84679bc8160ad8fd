// `sitebeam prompt MODEL [MESSAGE|-]`: one prompt, the answer's lines, then its score.
import { limits, type PromptResponse, type PromptSettings } from '../../client/index.js';
import { usageError } from '../exit-codes.js';
import type { Session } from '../session.js';
import { readStandardInput } from '../standard-input.js';

export interface PromptOptions {
  set?: PromptSettings;
}

export async function promptModel(
  session: Session,
  model: string,
  messageArgument: string | undefined,
  options: PromptOptions,
): Promise<void> {
  session.model = model;
  const message =
    messageArgument === undefined || messageArgument === '-'
      ? (await readStandardInput('Type the prompt, then Ctrl-D on a line of its own:')).replace(
          /[\r\n]+$/,
          '',
        )
      : messageArgument;
  const problem = promptMessageProblem(message);
  if (problem) throw usageError(problem);
  const { client } = await session.connect(true);
  const answer = await client.prompt({ model, message, settings: options.set ?? {} });
  session.answer(formatAnswer(answer));
}

export function promptMessageProblem(message: string): string | undefined {
  if (message.trim() === '') return 'the prompt is empty';
  const characters = [...message].length;
  if (characters > limits.promptMessageChars) {
    return `the prompt has ${characters} characters; the API accepts at most ${limits.promptMessageChars}`;
  }
  return undefined;
}

export function formatAnswer(answer: PromptResponse): string {
  // Models without a score answer null: nothing to print then.
  const score = typeof answer.score === 'number' ? [`(score ${answer.score})`] : [];
  return [...answer.response, ...score].join('\n');
}
