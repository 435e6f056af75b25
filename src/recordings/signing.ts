/**
 * Pure: HMAC-SHA256 signatures for the disk store's upload URLs (the signature is the only credential of the PUT).
 *
 * A signature has two base64url HMACs joined by a dot, each over a JSON array (so no field can bleed into
 * another, whatever characters it holds) with its own domain label:
 *   1. the URL part: PUT, key, size, expiry and the type part's text;
 *   2. the type part: PUT, key, size, expiry and the canonical Content-Type.
 * Both must verify. Splitting them lets the upload route tell a client that sent the wrong Content-Type (415,
 * "send the header as given") from one holding a forged or altered URL, which one MAC could not distinguish
 * because the Content-Type travels in a header, not in the URL. The URL part covers the type part, so an altered
 * type part is an altered URL (403), not a wrong Content-Type.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadSignatureParams {
  key: string;
  contentType: string;
  sizeBytes: number;
  /** Unix seconds after which the URL stops working. */
  expires: number;
}

/**
 * The form of a Content-Type that the signature binds: the media type lower-cased and trimmed, parameters
 * trimmed with lower-cased names and values kept exactly (`Audio/WebM ; codecs=opus` → `audio/webm; codecs=opus`).
 */
export function canonicalContentType(contentType: string): string {
  const [essence = '', ...params] = contentType.split(';');
  const parts = [essence.trim().toLowerCase()];
  for (const param of params) {
    const eq = param.indexOf('=');
    const canonical =
      eq < 0 ? param.trim() : `${param.slice(0, eq).trim().toLowerCase()}=${param.slice(eq + 1).trim()}`;
    if (canonical !== '') parts.push(canonical);
  }
  return parts.join('; ');
}

function assertParams(p: UploadSignatureParams): void {
  if (typeof p.key !== 'string' || p.key === '') throw new TypeError('key must be a non-empty string');
  if (typeof p.contentType !== 'string' || canonicalContentType(p.contentType) === '') {
    throw new TypeError('contentType must be a non-empty string');
  }
  if (!Number.isSafeInteger(p.sizeBytes) || p.sizeBytes < 0)
    throw new TypeError('sizeBytes must be an integer >= 0');
  if (!Number.isSafeInteger(p.expires) || p.expires < 0) throw new TypeError('expires must be unix seconds');
}

function mac(secret: Buffer | string, fields: (string | number)[]): string {
  return createHmac('sha256', secret).update(JSON.stringify(fields)).digest('base64url');
}

function urlPart(secret: Buffer | string, p: UploadSignatureParams, typeMac: string): string {
  return mac(secret, ['callscore/upload-url/v2', 'PUT', p.key, p.sizeBytes, p.expires, typeMac]);
}

function typePart(secret: Buffer | string, p: UploadSignatureParams): string {
  return mac(secret, [
    'callscore/upload-type/v1',
    'PUT',
    p.key,
    p.sizeBytes,
    p.expires,
    canonicalContentType(p.contentType),
  ]);
}

/** Constant-time string comparison; a length difference (which is public for a MAC) answers false. */
function safeEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(a, a); // spend the same work either way
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Signs an upload URL for PUT of `sizeBytes` bytes of `contentType` to `key` until `expires`. */
export function signUpload(secret: Buffer | string, p: UploadSignatureParams): string {
  assertParams(p);
  const type = typePart(secret, p);
  return `${urlPart(secret, p, type)}.${type}`;
}

/**
 * Which part of a signature fails, if any: `signature` when the URL (key, size, expiry) was not issued by us,
 * `content_type` when the URL is genuine but `p.contentType` is not the type it was issued for.
 */
export function checkUploadSignature(
  secret: Buffer | string,
  p: UploadSignatureParams,
  signature: string,
): 'ok' | 'signature' | 'content_type' {
  const contentType = typeof p.contentType === 'string' ? p.contentType : '';
  try {
    assertParams({ ...p, contentType: 'checked below' });
  } catch {
    return 'signature';
  }
  if (typeof signature !== 'string') return 'signature';
  const dot = signature.indexOf('.');
  if (dot < 0) return 'signature';
  const typeMac = signature.slice(dot + 1);
  if (!safeEqual(urlPart(secret, p, typeMac), signature.slice(0, dot))) return 'signature';
  if (canonicalContentType(contentType) === '') return 'content_type';
  return safeEqual(typePart(secret, { ...p, contentType }), typeMac) ? 'ok' : 'content_type';
}

/** True when `signature` was made by signUpload with this secret for exactly these parameters. */
export function verifyUpload(secret: Buffer | string, p: UploadSignatureParams, signature: string): boolean {
  return checkUploadSignature(secret, p, signature) === 'ok';
}
