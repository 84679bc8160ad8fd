// Reads a body up to a number of bytes, never more: an instance (or a page in front of it)
// answering without end, or a visitor posting without end, must not fill the memory of the relay
// or the CLI.

/** The body's bytes, or undefined when it is (or announces itself as) larger than `maxBytes`. */
export async function readCappedBody(
  message: Pick<Response | Request, 'headers' | 'body'>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  if (Number(message.headers.get('content-length')) > maxBytes) {
    await message.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!message.body) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
