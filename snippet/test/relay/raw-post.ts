// Requests over plain node:http, which (unlike fetch) sends any Host and a body of any size, and
// reads the answer even when the server closes before the body is all sent.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
  connection: string | undefined;
  headers: IncomingHttpHeaders;
}

/**
 * Sends `body` (none by default) to `url` in 16 KiB writes, with `content-length` unless
 * `chunked`. A server that answers and closes before the body is all written is not a failure.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer; chunked?: boolean },
): Promise<RawAnswer> {
  const headers = { ...options.headers };
  const { body } = options;
  if (body && !options.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? 'POST', headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            connection: incoming.headers.connection,
            headers: incoming.headers,
          }),
        );
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (let offset = 0; body && offset < body.length; offset += 16_384) {
      outgoing.write(body.subarray(offset, offset + 16_384));
    }
    outgoing.end();
  });
}

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
): Promise<RawAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...options.headers,
  };
  if (options.host) headers.host = options.host;
  return rawRequest(`http://127.0.0.1:${port}${options.path ?? '/contact'}`, {
    headers,
    body: options.body ?? Buffer.from('{}'),
    chunked: options.chunked,
  });
}
