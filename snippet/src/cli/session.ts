// One run of a command: the global options, the connection once opened, and how its outcome is
// printed (text for people, or with --json the API's answer as it came) and turned into an exit code.
import { type SitebeamClient, visibleControls, visibleJson } from '../client/index.js';
import { type Connection, connect, type RawAnswer } from './connection.js';
import { CliError, type ExitCode, exitCodeFor, isApiError } from './exit-codes.js';
import { explainApiError } from './explain.js';
import { type Instance, requireToken, resolveInstance } from './instance.js';

export interface GlobalOptions {
  json?: boolean;
  profile?: string;
  timeout: number;
}

export class Session {
  readonly json: boolean;
  /** The model the command is about, named in a 503 model_loading message. */
  model: string | undefined;
  private connection: Connection | undefined;

  constructor(readonly options: GlobalOptions) {
    this.json = options.json === true;
  }

  /** The instance to talk to, and a client for it; `withToken: false` for the tracker. */
  async connect(withToken: boolean): Promise<{ client: SitebeamClient; instance: Instance }> {
    const instance = await resolveInstance(this.options.profile);
    for (const warning of instance.warnings ?? []) warn(`warning: ${warning}`);
    if (withToken) requireToken(instance);
    this.connection = connect(instance, { timeoutMs: this.options.timeout * 1000, withToken });
    return { client: this.connection.client, instance };
  }

  lastAnswer(): RawAnswer | undefined {
    return this.connection?.lastAnswer();
  }

  /** With --json the API's answer as it came, else `human`. */
  answer(human: string): void {
    if (this.json) printJson(this.lastAnswer()?.text ?? '');
    else printLine(human);
  }

  /** Says what went wrong on stderr (and with --json the API's error answer on stdout). */
  fail(error: unknown): ExitCode {
    if (error instanceof CliError) {
      warn(error.message);
      return error.exitCode;
    }
    if (!isApiError(error)) throw error;
    const answer = this.lastAnswer();
    if (this.json) {
      // A script still reads JSON when the instance answered something else.
      const sameAnswer = answer && answer.status === error.status ? answer.text : '';
      const failure = { status: 'ko', error: error.message, i18n_code: error.code };
      printLine(visibleJson(sameAnswer) ?? JSON.stringify(failure));
    }
    warn(explainApiError(error, { model: this.model }));
    return exitCodeFor(error);
  }
}

/** Prints a line; whatever came from the instance in it cannot act on the terminal. */
export function printLine(text: string): void {
  const safe = visibleControls(text);
  process.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/** Prints a JSON text (with --json) with its control characters escaped, still valid JSON. */
export function printJson(text: string): void {
  process.stdout.write(`${visibleJson(text) ?? JSON.stringify(visibleControls(text))}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`sitebeam: ${visibleControls(text)}\n`);
}
