// A fake instance for the hostile-instance suite: a tiny HTTP server answering every request with
// whatever the test set last, as a broken, compromised or impersonated instance might.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileAnswer {
  status: number;
  contentType?: string;
  /** The body; `endless` streams chunks (no Content-Length) until the client stops reading. */
  body: string | { endless: true };
}

export interface HostileInstance {
  url: string;
  answer: HostileAnswer;
  /** Bytes written by the last endless answer before the client went away. */
  endlessBytesSent: number;
  close(): Promise<void>;
}

/** An endless answer stops here at the latest, so a client that reads it whole still ends. */
export const ENDLESS_LIMIT_BYTES = 64 * 1024 * 1024;

export async function startHostileInstance(): Promise<HostileInstance> {
  const instance: HostileInstance = {
    url: '',
    answer: { status: 200, body: '{"status":"ok"}' },
    endlessBytesSent: 0,
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server: Server = createServer((request, response) => {
    request.resume();
    const { status, contentType = 'application/json', body } = instance.answer;
    response.writeHead(status, { 'content-type': contentType });
    if (typeof body === 'string') {
      response.end(body);
      return;
    }
    instance.endlessBytesSent = 0;
    const chunk = Buffer.alloc(64 * 1024, ' ');
    response.write('{"status":"ok","models":["');
    const more = () => {
      while (instance.endlessBytesSent < ENDLESS_LIMIT_BYTES) {
        instance.endlessBytesSent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end('"]}');
    };
    response.on('close', () => response.removeAllListeners('drain'));
    more();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  instance.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return instance;
}
