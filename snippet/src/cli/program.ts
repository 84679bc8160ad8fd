// The `sitebeam` command line: every command, its options, its help with an example.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { chat } from './commands/chat.js';
import { sendEmail } from './commands/email.js';
import { loadModel } from './commands/load.js';
import { listModels } from './commands/models.js';
import { listProfiles, login, logout } from './commands/profiles.js';
import { promptModel } from './commands/prompt.js';
import { track } from './commands/track.js';
import { exitCodes, exitCodeTable } from './exit-codes.js';
import { type GlobalOptions, Session } from './session.js';
import { collectSetting } from './settings.js';

const instanceHelp = `Instance and token, first found wins:
  1. --profile NAME        a profile saved by \`sitebeam login --profile NAME\`
  2. SITEBEAM_API_URL      with SITEBEAM_API_TOKEN (the tracker needs no token)
  3. the profile "default" saved by \`sitebeam login\`
Profiles live in $XDG_CONFIG_HOME/sitebeam/profiles.json (~/.config/sitebeam/…; %APPDATA%\\sitebeam
on Windows), readable by you only. https is required, except for localhost and 127.0.0.1.`;

export function buildProgram(): Command {
  const program = new Command('sitebeam')
    .description('Every endpoint of a Sitebeam instance from a terminal or a script.')
    .version(packageVersion(), '-V, --version')
    .option('--json', "print the API's answer as it came (JSON), for scripts")
    .option('--profile <name>', 'use this saved profile (see `sitebeam login`)')
    .option('--timeout <seconds>', 'give up on a call after this long', positiveNumber, 30)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : exitCodes.usage))
    .addHelpText('after', `\n${instanceHelp}\n\n${exitCodeTable}\n${example('sitebeam models')}`);

  program
    .command('login')
    .description('save an instance URL and token as a profile, once the instance accepts the token')
    .option('--url <url>', 'the instance URL (asked when omitted)')
    .addHelpText(
      'after',
      `\nThe token is asked without being shown; piped, the URL (unless --url) and the token are read
one per line from standard input. It is never accepted as an argument, where it would show in
the shell's history and the process list.${example(
        'sitebeam login --profile prod --url https://api.example.com',
        'sitebeam --profile prod models',
      )}`,
    )
    .action(run((session, options: { url?: string }) => login(session, options)));

  program
    .command('logout')
    .description('forget a profile and its token (--profile NAME, else "default")')
    .addHelpText('after', example('sitebeam logout --profile prod'))
    .action(run((session) => logout(session)));

  program
    .command('profiles')
    .description('list the saved profiles: names and URLs, never tokens')
    .addHelpText('after', example('sitebeam profiles'))
    .action(run((session) => listProfiles(session)));

  program
    .command('email')
    .description('send an email, its body from --content, --content-file or standard input')
    .requiredOption('--to <address>', 'the recipient')
    .requiredOption('--subject <text>', 'the subject line')
    .option('--from <address>', "the sender (default: the account's address)")
    .option('--bcc <address>', 'a blind copy')
    .option('--cc <address>', 'a copy (an extension some instances accept)')
    .option('--reply-to <address>', 'where replies go (an extension some instances accept)')
    .addOption(new Option('--html', 'the body is HTML, sent as it is').conflicts('text'))
    .option('--text', 'the body is plain text, escaped into HTML (the default)')
    .addOption(new Option('--content <text>', 'the body').conflicts('contentFile'))
    .option('--content-file <file>', 'read the body from this file')
    .option('--attach <file>', 'attach one file (its media type is detected; 10 MiB at most)')
    .addHelpText(
      'after',
      example(
        'echo "The backup ran." | sitebeam email --to me@example.com --subject "Backup" --attach backup.log',
      ),
    )
    .action(
      run((session, options: Parameters<typeof sendEmail>[1]) => sendEmail(session, options)),
    );

  program
    .command('models')
    .description('list the models of the instance')
    .addHelpText('after', example('sitebeam models'))
    .action(run((session) => listModels(session)));

  program
    .command('load')
    .description(
      'start loading a model in the background (the instance does not report when it is ready)',
    )
    .argument('<model>', 'a model the instance lists')
    .option('--wait', 'kept for scripts: returns once loading started, saying why it cannot wait')
    .addHelpText('after', example('sitebeam load nltksentiment'))
    .action(
      run((session, model: string, options: Parameters<typeof loadModel>[2]) =>
        loadModel(session, model, options),
      ),
    );

  program
    .command('prompt')
    .description('send one prompt to a model; prints the answer line by line, then its score')
    .argument('<model>', 'a model the instance lists')
    .argument('[message]', 'the prompt; "-" or none: read from standard input')
    .option('--set <key=value>', settingsHelp(), collectSetting)
    .addHelpText(
      'after',
      example(
        'sitebeam prompt nltksentiment "What a lovely day"',
        'sitebeam prompt gpt2 --set max_length=60 - < question.txt',
      ),
    )
    .action(
      run(
        (
          session,
          model: string,
          message: string | undefined,
          options: Parameters<typeof promptModel>[3],
        ) => promptModel(session, model, message, options),
      ),
    );

  program
    .command('chat')
    .description('talk to a model: one prompt per line, each answer with its score; Ctrl-D leaves')
    .argument('<model>', 'a model the instance lists')
    .option('--set <key=value>', settingsHelp(), collectSetting)
    .addHelpText('after', example('sitebeam chat mock'))
    .action(
      run((session, model: string, options: Parameters<typeof chat>[2]) =>
        chat(session, model, options),
      ),
    );

  program
    .command('track')
    .description('record a visit as a browser would, and print what the instance saw')
    .argument('<website>', 'the website name the visit is recorded under')
    .option('--pixel', 'use the hidden-image endpoint (it records the visit but returns no record)')
    .option('--user-agent <text>', 'send this User-Agent, to see how the instance reads it')
    .option('--referrer <url>', 'send this Referer')
    .addHelpText(
      'after',
      example('sitebeam track example.com', 'sitebeam track example.com --pixel'),
    )
    .action(
      run((session, website: string, options: Parameters<typeof track>[2]) =>
        track(session, website, options),
      ),
    );

  return program;
}

/**
 * Commander's action for a task: the task gets a session with the global options; whatever it
 * throws becomes a message on stderr and an exit code.
 */
function run<A extends unknown[]>(
  task: (session: Session, ...args: A) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    const session = new Session(command.optsWithGlobals<GlobalOptions>());
    try {
      await task(session, ...(args.slice(0, -1) as A));
    } catch (error) {
      process.exitCode = session.fail(error);
    }
  };
}

function positiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError('expected a number of seconds above 0');
  }
  return number;
}

function settingsHelp(): string {
  return 'a model setting, typed as the API expects (repeatable): max_length=60, temperature=0.7, do_sample=true…';
}

function example(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;
}

function packageVersion(): string {
  const path = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
