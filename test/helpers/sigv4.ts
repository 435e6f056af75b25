/**
 * verifyPresignedPut: checks a request against a SigV4 presigned URL the way S3 does (AWS "Authenticating Requests:
 * Using Query Parameters"), written from the published algorithm rather than with the SDK that made the URL. Used
 * where s3rver, which does not verify SigV4, cannot give the verdict a real bucket would.
 */
import { createHash, createHmac } from 'node:crypto';

const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export type SigV4Verdict = 'ok' | 'signature_mismatch' | 'unsigned_header' | 'expired';

export function verifyPresignedPut(
  urlText: string,
  request: { method: string; headers: Record<string, string>; now?: Date },
  secretAccessKey: string,
): SigV4Verdict {
  const url = new URL(urlText);
  const q = url.searchParams;
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const [, date, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = q.get('X-Amz-Date') ?? '';
  const start = Date.UTC(
    Number(amzDate.slice(0, 4)),
    Number(amzDate.slice(4, 6)) - 1,
    Number(amzDate.slice(6, 8)),
    Number(amzDate.slice(9, 11)),
    Number(amzDate.slice(11, 13)),
    Number(amzDate.slice(13, 15)),
  );
  if ((request.now ?? new Date()).getTime() > start + Number(q.get('X-Amz-Expires')) * 1000) return 'expired';

  const headers = new Map(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  headers.set('host', url.host);
  // S3 refuses x-amz-* headers that are sent but not signed; other unsigned headers are ignored.
  for (const name of headers.keys())
    if (name.startsWith('x-amz-') && !signedHeaders.includes(name)) return 'unsigned_header';

  const canonicalQuery = [...q.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${(headers.get(name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), 'aws4_request');
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return signature === q.get('X-Amz-Signature') ? 'ok' : 'signature_mismatch';
}
