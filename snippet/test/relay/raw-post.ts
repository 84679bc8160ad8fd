// A POST over plain node:http, which (unlike fetch) sends any Host and a body of any size, and
// reads the answer even when the server closes before the body is all sent.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** POSTs JSON (`{}` by default) to 127.0.0.1:port/contact, or to `path`. */
export function rawPost(
  port: number,
  options: {
    host?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: Buffer;
    chunked?: boolean;
  },
): Promise<{
  status: number;
  body: string;
  connection: string | undefined;
  headers: IncomingHttpHeaders;
}> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.host) headers.host = options.host;
  if (options.body && !options.chunked) headers['content-length'] = String(options.body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        port,
        host: '127.0.0.1',
        path: options.path ?? '/contact',
        method: 'POST',
        headers,
        agent: false,
      },
      (incoming) => {
        let body = '';
        incoming.on('data', (chunk) => {
          body += chunk;
        });
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            body,
            connection: incoming.headers.connection,
            headers: incoming.headers,
          }),
        );
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    const body = options.body ?? Buffer.from('{}');
    for (let offset = 0; offset < body.length; offset += 16_384) {
      outgoing.write(body.subarray(offset, offset + 16_384));
    }
    outgoing.end();
  });
}
