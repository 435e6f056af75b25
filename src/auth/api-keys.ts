/**
 * API keys: `svc_sk_` + 32 random bytes (base64url). Only the SHA-256 digest is stored; a presented key is
 * looked up by its digest and the match is confirmed with a constant-time comparison.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_sk_';
export const SCOPES = ['calls:write', 'calls:read', 'recordings:write'] as const;
export type Scope = (typeof SCOPES)[number];

// The secret part: base64url, at least 16 characters (shorter keys cannot be ours and are refused unhashed).
const KEY_PATTERN = /^svc_sk_[A-Za-z0-9_-]{16,200}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function isWellFormedApiKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

export function digestApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the web app shows to recognise a key without revealing it. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 6);
}

/** Extracts the key from `Authorization: Bearer svc_sk_…`; null when missing or malformed. */
export function bearerKey(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const key = match?.[1];
  return key && isWellFormedApiKey(key) ? key : null;
}
