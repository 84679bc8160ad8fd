// Questions for `sitebeam login`: on a terminal, asked on stderr with the secret typed unseen;
// otherwise read line by line from standard input, so a script can pipe the answers in.
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { usageError } from './exit-codes.js';

export interface Asker {
  ask(question: string): Promise<string>;
  /** Asks without showing what is typed. */
  askSecret(question: string): Promise<string>;
  close(): void;
}

export function createAsker(): Asker {
  return process.stdin.isTTY ? terminalAsker() : linesAsker();
}

function terminalAsker(): Asker {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output, terminal: true });
  lines.on('SIGINT', () => {
    process.stderr.write('\n');
    process.exit(130);
  });
  const question = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const onClose = () => reject(usageError('cancelled: nothing was saved'));
      lines.once('close', onClose);
      lines.question(text, (answer) => {
        lines.off('close', onClose);
        resolve(answer.trim());
      });
    });
  return {
    ask: question,
    async askSecret(text) {
      process.stderr.write(text);
      muted = true;
      try {
        return await question('');
      } finally {
        muted = false;
        process.stderr.write('\n');
      }
    },
    close: () => lines.close(),
  };
}

function linesAsker(): Asker {
  const lines: Interface = createInterface({ input: process.stdin, terminal: false });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async (question: string) => {
    const line = await iterator.next();
    if (line.done) {
      throw usageError(`standard input ended before the answer to "${question.trim()}"`);
    }
    return String(line.value).trim();
  };
  return { ask: next, askSecret: next, close: () => lines.close() };
}
