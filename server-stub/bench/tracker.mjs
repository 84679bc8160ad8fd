// npm run bench (stub part): requests per second and p99 latency of tracker/json and tracker/img,
// against a bare node:http server answering a fixed JSON body on the same machine, and the stub's
// resident memory before and after 100,000 visits. Prints numbers; asserts nothing.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const bare = fileURLToPath(new URL('./bare-server.mjs', import.meta.url));
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

async function startServer(script, args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return {
    child,
    url,
    stop: () =>
      new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      }),
  };
}

const rssMiB = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Public addresses spread over the world, so each visit does a real geolocation lookup. */
const addresses = Array.from(
  { length: 997 },
  (_, i) =>
    `${[8, 31, 45, 62, 81, 104, 151, 185, 203][i % 9]}.${(i * 7) % 250}.${(i * 13) % 250}.${(i % 250) + 1}`,
);

function load(url, path, options = {}) {
  let next = 0;
  return autocannon({
    url: url + path,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: DURATION_S }),
    headers: { 'user-agent': USER_AGENT, referer: 'https://example.com/pricing' },
    requests: [
      {
        setupRequest: (request) => {
          next = (next + 1) % addresses.length;
          return {
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': addresses[next] },
          };
        },
      },
    ],
  });
}

const line = (name, result) =>
  `${name.padEnd(24)} ${String(Math.round(result.requests.average)).padStart(7)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   errors ${result.errors + result.non2xx}`;

const bareServer = await startServer(bare, []);
const bareResult = await load(bareServer.url, '/');
await bareServer.stop();

const stub = await startServer(cli, ['--port', '0', '--quiet', '--trust-proxy', '--no-demo']);
await load(stub.url, '/v1/tracker/json/warm-up', { amount: 2000 });
const json = await load(stub.url, '/v1/tracker/json/example.com');
const img = await load(stub.url, '/v1/tracker/img/example.com');

const rssSamples = [rssMiB(stub.child.pid)];
let visitsSent = 0;
let visitErrors = 0;
for (let step = 0; step < 4; step += 1) {
  const batch = await load(stub.url, '/v1/tracker/json/example.com', { amount: 25_000 });
  visitsSent += batch.requests.total;
  visitErrors += batch.errors + batch.non2xx;
  rssSamples.push(rssMiB(stub.child.pid));
}
await stub.stop();

console.log(
  `Tracker benchmark: ${CONNECTIONS} connections, ${DURATION_S} s per run, node ${process.version}`,
);
console.log(line('bare node:http (JSON)', bareResult));
console.log(line('stub tracker/json', json));
console.log(line('stub tracker/img', img));
console.log(
  `ratio stub/bare: json ${(json.requests.average / bareResult.requests.average).toFixed(2)}, img ${(img.requests.average / bareResult.requests.average).toFixed(2)} (target ≥ 0.35)`,
);
console.log(
  `stub RSS over ${visitsSent} more visits (${visitErrors} errors), every 25,000: ${rssSamples.map((mib) => mib.toFixed(1)).join(' → ')} MiB`,
);

// RSS includes whatever V8 has not yet given back; the live heap after a forced GC is the figure
// that shows whether memory is bounded. Measured in this process, same stub, same load.
const { createStub } = await import('../dist/app.js');
const { defaultOptions } = await import('../dist/options.js');
const inProcess = await createStub(
  { ...defaultOptions, trustProxy: true, quiet: true },
  { visitLines: () => {}, log: () => {} },
);
await inProcess.app.listen({ host: '127.0.0.1', port: 0 });
await inProcess.warmedUp;
const inProcessUrl = `http://127.0.0.1:${inProcess.app.server.address().port}`;
const liveHeapMiB = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1048576;
};
if (globalThis.gc) {
  const heapSamples = [liveHeapMiB()];
  for (let step = 0; step < 4; step += 1) {
    await load(inProcessUrl, '/v1/tracker/json/example.com', { amount: 25_000 });
    heapSamples.push(liveHeapMiB());
  }
  console.log(
    `stub live heap after GC, every 25,000 visits: ${heapSamples.map((mib) => mib.toFixed(1)).join(' → ')} MiB`,
  );
} else {
  console.log('stub live heap: run with node --expose-gc to measure it');
}
await inProcess.close();
