// A customer's website on its own origin: serves the given pages and the built snippet files.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const snippetDist = fileURLToPath(new URL('../../snippet/dist/', import.meta.url));
const builtFiles = ['sitebeam.min.js', 'sitebeam-form.min.js', 'sitebeam-chat.min.js'];

export interface StaticSite {
  url: string;
  close: () => Promise<void>;
}

/** `pages` maps a path (e.g. `/`, `/about`) to its HTML; extra headers apply to every page. */
export async function startStaticSite(
  pages: Record<string, string>,
  pageHeaders: Record<string, string> = {},
): Promise<StaticSite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const builtFile = builtFiles.find((file) => path === `/${file}`);
    if (builtFile) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(readFileSync(snippetDist + builtFile));
      return;
    }
    const page = pages[path];
    if (page === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...pageHeaders });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
