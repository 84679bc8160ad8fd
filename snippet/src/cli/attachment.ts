// One file as the API's attachment block: size checked before it is read, media type from the
// file's content (file-type) or else its name (mime-types).
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { lookup } from 'mime-types';
import { type Attachment, limits } from '../client/index.js';
import { usageError } from './exit-codes.js';

const unknownType = 'application/octet-stream';

export async function readAttachment(path: string): Promise<Attachment> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw usageError(`--attach ${path} is not a file`);
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw usageError(`--attach ${path}: no such file`);
    }
    throw error;
  }
  if (size > limits.attachmentBytes) {
    throw usageError(
      `--attach ${path} is ${formatBytes(size)}; the API accepts attachments up to ${formatBytes(limits.attachmentBytes)}`,
    );
  }
  const content = await readFile(path);
  const fileName = basename(path);
  return {
    mime_type: await mediaType(content, fileName),
    file_name: fileName,
    b64: content.toString('base64'),
  };
}

async function mediaType(content: Uint8Array, fileName: string): Promise<string> {
  const detected = await fileTypeFromBuffer(content);
  return detected?.mime ?? (lookup(fileName) || unknownType);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
