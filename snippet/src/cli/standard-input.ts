// Everything on standard input, as text: a piped file, or what is typed until Ctrl-D.
export async function readStandardInput(hintOnTerminal: string): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(`${hintOnTerminal}\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
