// A loopback port for a server a test starts itself, or for a call that must find nothing there.
import { createServer } from 'node:net';

/** A port of 127.0.0.1 the system found free; closed again, so nothing listens on it now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
