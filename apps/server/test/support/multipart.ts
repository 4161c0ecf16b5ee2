/*
 * A multipart/form-data body as a browser's FormData sends it (the bulk
 * import's upload), for TestClient.request: the payload and its content type.
 */
import { randomBytes } from 'node:crypto';

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer | string; contentType?: string };

export function multipartBody(parts: readonly FormPart[]) {
  const boundary = `----trialwear${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`
        : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    const content = 'content' in part ? part.content : part.value;
    chunks.push(typeof content === 'string' ? Buffer.from(content) : content);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
