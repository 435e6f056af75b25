import { describe, expect, it } from 'vitest';
import { canonicalContentType, checkUploadSignature, signUpload, verifyUpload } from './signing.js';

const secret = Buffer.from('test-secret-0123456789abcdef', 'utf8');
const params = {
  key: 'rec_0123abcd',
  contentType: 'audio/mpeg',
  sizeBytes: 1_048_576,
  expires: 1_900_000_000,
};

describe('upload signatures', () => {
  it('round-trips: a signature verifies for exactly the parameters it was made for', () => {
    const sig = signUpload(secret, params);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUpload(secret, params, sig)).toBe(true);
    expect(signUpload(secret, params)).toBe(sig); // deterministic
    expect(verifyUpload(secret.toString('utf8'), params, sig)).toBe(true); // string and Buffer secrets agree
  });

  it.each([
    ['key', { ...params, key: 'rec_0123abce' }],
    ['size', { ...params, sizeBytes: params.sizeBytes + 1 }],
    ['expiry', { ...params, expires: params.expires + 1 }],
  ])('refuses an altered %s as a bad signature', (_field, altered) => {
    const sig = signUpload(secret, params);
    expect(verifyUpload(secret, altered, sig)).toBe(false);
    expect(checkUploadSignature(secret, altered, sig)).toBe('signature');
  });

  it('refuses another content type, telling it apart from a forged URL', () => {
    const sig = signUpload(secret, params);
    const other = { ...params, contentType: 'audio/wav' };
    expect(verifyUpload(secret, other, sig)).toBe(false);
    expect(checkUploadSignature(secret, other, sig)).toBe('content_type');
    expect(checkUploadSignature(secret, { ...params, contentType: '' }, sig)).toBe('content_type');
    expect(checkUploadSignature(secret, { ...params, contentType: 'audio/mpeg; rate=8000' }, sig)).toBe(
      'content_type',
    );
  });

  it('refuses another secret, altered signatures and signatures of the wrong shape', () => {
    const sig = signUpload(secret, params);
    expect(verifyUpload('another-secret', params, sig)).toBe(false);
    const [url, type] = sig.split('.') as [string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    expect(checkUploadSignature(secret, params, `${flip(url)}.${type}`)).toBe('signature');
    // The URL part covers the type part: an altered type part is an altered URL, not a wrong Content-Type.
    expect(checkUploadSignature(secret, params, `${url}.${flip(type)}`)).toBe('signature');
    expect(checkUploadSignature(secret, params, `${url}.${type}x`)).toBe('signature');
    expect(verifyUpload(secret, params, `${url}.${flip(type)}`)).toBe(false);
    expect(verifyUpload(secret, params, url)).toBe(false); // type part stripped
    expect(verifyUpload(secret, params, `${url}.`)).toBe(false);
    expect(verifyUpload(secret, params, `${url}.${type}x`)).toBe(false); // longer: length-safe, no throw
    expect(verifyUpload(secret, params, `${url.slice(1)}.${type}`)).toBe(false); // shorter
    expect(verifyUpload(secret, params, '')).toBe(false);
  });

  it('binds the method: the type part of one URL cannot stand in for the URL part', () => {
    const sig = signUpload(secret, params);
    const [url, type] = sig.split('.') as [string, string];
    expect(verifyUpload(secret, params, `${type}.${url}`)).toBe(false);
  });

  it('keeps fields apart: moving characters between key and content type changes the signature', () => {
    const a = signUpload(secret, { ...params, key: 'rec_a', contentType: 'audio/mpeg' });
    const b = signUpload(secret, { ...params, key: 'rec_', contentType: 'aaudio/mpeg' });
    expect(a).not.toBe(b);
    expect(verifyUpload(secret, { ...params, key: 'rec_', contentType: 'aaudio/mpeg' }, a)).toBe(false);
  });

  it('accepts the issued content type in another case or with surrounding whitespace', () => {
    const sig = signUpload(secret, { ...params, contentType: 'audio/webm; codecs=opus' });
    for (const sent of [
      'Audio/WebM; codecs=opus',
      '  audio/webm ;codecs=opus  ',
      'AUDIO/WEBM;  Codecs = opus',
    ]) {
      expect(verifyUpload(secret, { ...params, contentType: sent }, sig), sent).toBe(true);
    }
    // Parameter values are compared exactly.
    expect(verifyUpload(secret, { ...params, contentType: 'audio/webm; codecs=OPUS' }, sig)).toBe(false);
    expect(verifyUpload(secret, { ...params, contentType: 'audio/webm' }, sig)).toBe(false);
  });

  it('canonicalises content types', () => {
    expect(canonicalContentType(' Video/MP4 ')).toBe('video/mp4');
    expect(canonicalContentType('audio/ogg ; Codecs=vorbis ;')).toBe('audio/ogg; codecs=vorbis');
  });

  it('refuses to sign nonsense', () => {
    expect(() => signUpload(secret, { ...params, sizeBytes: -1 })).toThrow(TypeError);
    expect(() => signUpload(secret, { ...params, sizeBytes: 1.5 })).toThrow(TypeError);
    expect(() => signUpload(secret, { ...params, key: '' })).toThrow(TypeError);
    expect(() => signUpload(secret, { ...params, contentType: ' ' })).toThrow(TypeError);
    expect(() => signUpload(secret, { ...params, expires: Number.NaN })).toThrow(TypeError);
  });
});
