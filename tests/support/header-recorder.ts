// A pass-through in front of the stub that notes the Cookie header of each request as the instance
// received it. Playwright's allHeaders() depends on Chromium reporting the headers its network
// stack added: for a request answered 404 at once it came back without them, cookie included.
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeaderRecorder {
  url: string;
  /** Path and Cookie header (`undefined`: none) of each request, in order of arrival. */
  received: { path: string; cookie: string | undefined }[];
  close: () => Promise<void>;
}

/** Forwards every request to `target` (an http origin) and its answer back, unchanged. */
export async function startHeaderRecorder(target: string): Promise<HeaderRecorder> {
  const received: HeaderRecorder['received'] = [];
  const { host } = new URL(target);
  const server = createServer((incoming, outgoing) => {
    received.push({ path: incoming.url ?? '', cookie: incoming.headers.cookie });
    const upstream = forward(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers: { ...incoming.headers, host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
