// npm start: builds what is missing or out of date, then runs the stub with its demo on port 8787
// (extra arguments go to the stub: npm start -- --port 9000).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outputs = [
  'snippet/dist/sitebeam.min.js',
  'snippet/dist/sitebeam-form.min.js',
  'snippet/dist/relay/index.js',
  'server-stub/dist/cli.js',
];
const sources = ['snippet/src', 'server-stub/src'];

function newestIn(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const built = outputs.every((file) => existsSync(join(root, file)));
const oldestOutput = built
  ? Math.min(...outputs.map((file) => statSync(join(root, file)).mtimeMs))
  : 0;
const newestSource = Math.max(...sources.map((dir) => newestIn(join(root, dir))));
if (!built || newestSource > oldestOutput) {
  console.error('Building Sitebeam first (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const args = process.argv.slice(2);
const stub = spawn(
  process.execPath,
  [
    join(root, 'server-stub/dist/cli.js'),
    ...(args.includes('--port') ? [] : ['--port', '8787']),
    ...args,
  ],
  {
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stub.kill(signal));
stub.on('exit', (code) => process.exit(code ?? 0));
