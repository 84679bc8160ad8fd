#!/usr/bin/env node
// sitebeam-stub: the Sitebeam API on this machine. Visit records go to stdout (one JSON line each)
// unless --visits-log says otherwise; messages go to stderr.
import { openSync, statSync, writeSync } from 'node:fs';
import { createStub } from './app.js';
import { isLoopback } from './control-access.js';
import { parseOptions, type StubOptions, UsageError, usage } from './options.js';
import { defaultAccount } from './store/accounts.js';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`sitebeam-stub: ${error.message}\nRun with --help for the options.`);
    return 2;
  }
  if (options === 'help') {
    say(usage);
    return 0;
  }

  // Visit records hold visitors' addresses: a new log file is readable by its owner only.
  const visitsFd = options.visitsLog ? openSync(options.visitsLog, 'a', 0o600) : undefined;
  if (options.accountsFile) warnIfShared(options.accountsFile);
  const visitLines =
    visitsFd === undefined
      ? (line: string) => process.stdout.write(line)
      : (line: string) => writeSync(visitsFd, line);

  let stub: Awaited<ReturnType<typeof createStub>>;
  try {
    stub = await createStub(options, { visitLines, log: (line) => process.stderr.write(line) });
  } catch (error) {
    say(`sitebeam-stub: cannot start: ${(error as Error).message}`);
    return 1;
  }

  // Signal handlers go in before the listening line: a supervisor may signal as soon as it reads it.
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        say(`sitebeam-stub: ${signal} again, exiting now`);
        process.exit(1);
      }
      stopping = true;
      if (!options.quiet) say(`sitebeam-stub: ${signal}, closing`);
      stub.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });

  try {
    await stub.app.listen({ host: options.host, port: options.port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      say(
        `sitebeam-stub: port ${options.port} on ${options.host} is already taken; choose another with --port`,
      );
    } else if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      say(`sitebeam-stub: cannot listen on ${options.host}: no such local address`);
    } else {
      say(`sitebeam-stub: cannot listen: ${(error as Error).message}`);
    }
    await stub.close();
    return 1;
  }

  const address = stub.app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const base = `http://${host}:${port}`;
  say(`Sitebeam stub listening on ${base}`);
  const reach = exposure(options, base);
  if (!options.quiet || reach.network) say(`  ${reach.text}`);
  if (!options.quiet) {
    if (options.demo) say(`  demo page   ${base}/\n  inbox       ${base}/__stub/inbox`);
    say(`  OpenAPI     ${base}/openapi.json`);
    if (!options.accountsFile)
      say(`  dev token   ${defaultAccount.token} (account ${defaultAccount.email})`);
    if (options.dataDir) say(`  data dir    ${options.dataDir}`);
  }

  return stopped;
}

/** Who can reach what, in words: a stub on a network address is open to that network. */
function exposure(options: StubOptions, base: string): { network: boolean; text: string } {
  if (options.host === 'localhost' || isLoopback(options.host)) {
    return { network: false, text: 'open to this machine only' };
  }
  const control = '/__stub/* (accounts, tokens, captured mail, faults)';
  const text = options.openControl
    ? `open to the network: anyone who reaches ${base} can use the API, the demo pages and ${control}`
    : `open to the network: the API and the demo pages; ${control} answers this machine only (--open-control opens it)`;
  return { network: true, text };
}

/** Says so when a file holding API tokens can be read by other users of the machine. */
function warnIfShared(path: string): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      say(
        `sitebeam-stub: warning: ${path} holds API tokens and other users can read it (mode ${mode.toString(8)}); run: chmod 600 ${path}`,
      );
    }
  } catch {
    // Reading it reports a missing file with its own message.
  }
}

main().then(
  (code) => {
    process.exitCode = code;
    if (code !== 0) process.exit(code);
  },
  (error) => {
    say(`sitebeam-stub: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
