/**
 * A minimal stand-in for the Callscore API v1, speaking the contract over real HTTP on
 * 127.0.0.1 until the real server lands (the lead will add tests against it). It implements
 * only what the client tests need: auth, the error envelope with X-Request-Id, idempotent
 * POST /v1/calls, GET /v1/calls/{id}, POST /v1/recordings and a signed upload PUT.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedUpload {
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
}

export interface ContractServer {
  /** The API base, ending in /v1. */
  baseUrl: string;
  origin: string;
  apiKey: string;
  /** Every request the server received (method, path, headers, parsed JSON body). */
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }[];
  uploads: Map<string, RecordedUpload>;
  close(): Promise<void>;
}

export interface ContractServerOptions {
  apiKey?: string;
  /** Merged into every call object the server returns: simulates additive v1 changes. */
  extraCallFields?: Record<string, unknown>;
}

const CREATE_CALL_FIELDS = new Set([
  'external_id',
  'provider',
  'occurred_at',
  'call_type',
  'scorecard_id',
  'rep',
  'participants',
  'transcript',
  'recording_id',
  'metadata',
]);
const CONTENT_TYPES = new Set([
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/webm',
  'audio/ogg',
  'audio/flac',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/x-matroska',
  'video/x-m4v',
]);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

export async function startContractServer(options: ContractServerOptions = {}): Promise<ContractServer> {
  const apiKey = options.apiKey ?? 'svc_sk_test_0123456789';
  const requests: ContractServer['requests'] = [];
  const uploads = new Map<string, RecordedUpload>();
  const calls = new Map<string, { call: Json; fingerprint: string }>();
  const byExternal = new Map<string, string>();
  const recordings = new Map<string, { size: number; contentType: string; token: string; usedBy?: string }>();
  let seq = 0;
  let origin = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const requestId = `req_${++seq}`;
      res.setHeader('X-Request-Id', requestId);
      const url = new URL(req.url ?? '/', origin);
      const raw = Buffer.concat(chunks);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const fail = (
        status: number,
        code: string,
        message: string,
        fields?: { field: string; message: string }[],
      ) => send(status, { error: { code, message, request_id: requestId, ...(fields ? { fields } : {}) } });

      let body: unknown;
      const record = () =>
        requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });

      // Signed upload endpoint: no API key, the token header is the credential.
      const up = /^\/uploads\/([^/]+)$/.exec(url.pathname);
      if (up && req.method === 'PUT') {
        record();
        const rec = recordings.get(up[1] ?? '');
        if (!rec || url.searchParams.get('sig') !== rec.token)
          return fail(403, 'invalid_signature', 'bad signature');
        if (req.headers.authorization)
          return fail(400, 'unexpected_authorization', 'uploads take no API key');
        if (req.headers['x-upload-token'] !== rec.token)
          return fail(403, 'invalid_signature', 'missing signed header');
        if (req.headers['content-type'] !== rec.contentType)
          return fail(403, 'invalid_signature', 'content type');
        if (req.headers['transfer-encoding'])
          return fail(411, 'length_required', 'chunked uploads are refused');
        if (Number(req.headers['content-length']) !== rec.size || raw.length !== rec.size) {
          return fail(400, 'size_mismatch', `expected ${rec.size} bytes`);
        }
        uploads.set(up[1] ?? '', { headers: req.headers, bytes: raw });
        res.writeHead(200).end();
        return;
      }

      if (url.pathname === '/v1/openapi.json' && req.method === 'GET') {
        record();
        return send(200, {
          openapi: '3.1.0',
          info: { title: 'Callscore call scoring API', version: '1.0.0' },
          paths: {},
        });
      }

      if (raw.length > 0) {
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          record();
          return fail(415, 'unsupported_media_type', 'Body must be JSON');
        }
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          record();
          return fail(400, 'invalid_json', 'Body is not valid JSON');
        }
      }
      record();
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return fail(401, 'invalid_api_key', 'Invalid API key');

      if (url.pathname === '/v1/calls' && req.method === 'POST') {
        if (!isObj(body))
          return fail(422, 'validation_failed', 'Body must be an object', [{ field: '', message: 'object' }]);
        const unknown = Object.keys(body).filter((k) => !CREATE_CALL_FIELDS.has(k));
        if (unknown.length) {
          return fail(
            422,
            'unknown_field',
            'Unknown field',
            unknown.map((field) => ({ field, message: 'not allowed' })),
          );
        }
        const errors: { field: string; message: string }[] = [];
        if (typeof body.external_id !== 'string' || !body.external_id)
          errors.push({ field: 'external_id', message: 'required' });
        if (typeof body.provider !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(body.provider)) {
          errors.push({ field: 'provider', message: 'invalid' });
        }
        if (typeof body.occurred_at !== 'string' || !RFC3339.test(body.occurred_at)) {
          errors.push({ field: 'occurred_at', message: 'must be RFC 3339 with Z or a colon offset' });
        }
        const t = body.transcript;
        if (!isObj(t) || (t.segments == null) === (t.text == null)) {
          errors.push({ field: 'transcript', message: 'exactly one of segments or text' });
        }
        if (errors.length) return fail(422, 'validation_failed', 'Validation failed', errors);
        const transcript = t as Json;
        const segments = Array.isArray(transcript.segments) ? transcript.segments : [];
        const labeled = segments.length
          ? segments.every(
              (s) => isObj(s) && typeof s.speaker === 'string' && s.speaker && typeof s.text === 'string',
            )
          : /^\s*(\[[\d:]+\]\s+\S|[\d:]+\s+-\s+\S|[^:\n]{1,200}:\s)/m.test(String(transcript.text ?? ''));
        if (!labeled) return fail(422, 'transcript_unlabeled', 'Transcript has no speaker labels');
        let recordingId: string | null = null;
        if (body.recording_id != null) {
          const rec = recordings.get(String(body.recording_id));
          if (!rec || !uploads.has(String(body.recording_id)))
            return fail(422, 'recording_not_found', 'No such recording');
          if (rec.usedBy) return fail(409, 'recording_already_used', 'Recording already attached');
          recordingId = String(body.recording_id);
        }
        const key = `${String(body.provider).toLowerCase()}\u0000${body.external_id as string}`;
        const fingerprint = JSON.stringify(transcript.segments ?? transcript.text);
        const existing = byExternal.get(key);
        if (existing) {
          const stored = calls.get(existing);
          if (stored?.fingerprint !== fingerprint)
            return fail(409, 'external_id_conflict', 'Different transcript');
          return send(200, ingestResult(stored.call, false));
        }
        const id = randomUUID();
        const call: Json = {
          id,
          object: 'call',
          external_id: body.external_id,
          provider: String(body.provider).toLowerCase(),
          status: 'queued',
          skip_reason: null,
          rep: { email: isObj(body.rep) ? (body.rep.email ?? null) : 'admin@acme.test' },
          call_type: body.call_type ?? 'discovery',
          has_recording: recordingId !== null,
          attribution: {
            rep_source: isObj(body.rep) ? 'rep_email' : 'api_key_owner',
            speaker_source: transcript.rep_speaker ? 'rep_speaker' : 'inferred',
          },
          occurred_at: body.occurred_at,
          created_at: new Date().toISOString(),
          app_url: `${origin}/calls/${id}`,
          ...options.extraCallFields,
        };
        if (recordingId) recordings.get(recordingId)!.usedBy = id;
        calls.set(id, { call, fingerprint });
        byExternal.set(key, id);
        return send(202, ingestResult(call, true), { Location: `${origin}/v1/calls/${id}` });
      }

      const get = /^\/v1\/calls\/([^/]+)$/.exec(url.pathname);
      if (get && req.method === 'GET') {
        const stored = calls.get(decodeURIComponent(get[1] ?? ''));
        if (!stored) return fail(404, 'not_found', 'Call not found');
        return send(200, stored.call);
      }

      if (url.pathname === '/v1/recordings' && req.method === 'POST') {
        if (!isObj(body)) return fail(422, 'validation_failed', 'Body must be an object');
        const errors: { field: string; message: string }[] = [];
        if (typeof body.content_type !== 'string' || !CONTENT_TYPES.has(body.content_type)) {
          errors.push({ field: 'content_type', message: 'unsupported' });
        }
        if (!Number.isInteger(body.size_bytes) || (body.size_bytes as number) < 1) {
          errors.push({ field: 'size_bytes', message: '1 to 209715200' });
        }
        if (errors.length) return fail(422, 'validation_failed', 'Validation failed', errors);
        if ((body.size_bytes as number) > 209_715_200) return fail(422, 'recording_too_large', 'Too large');
        const id = `rec_${randomUUID().replaceAll('-', '')}`;
        const token = randomUUID();
        recordings.set(id, {
          size: body.size_bytes as number,
          contentType: body.content_type as string,
          token,
        });
        return send(201, {
          recording_id: id,
          object: 'recording_upload',
          upload_url: `${origin}/uploads/${id}?sig=${token}`,
          upload_method: 'PUT',
          upload_headers: { 'Content-Type': body.content_type, 'X-Upload-Token': token },
          expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
          max_size_bytes: 209_715_200,
        });
      }

      return fail(404, 'route_not_found', 'Route not found');
    });
  });

  function ingestResult(call: Json, created: boolean): Json {
    const {
      skip_reason: _s,
      rep: _r,
      call_type: _c,
      has_recording,
      occurred_at: _o,
      created_at: _ca,
      ...rest
    } = call;
    return { ...rest, created, recording_attached: has_recording };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    apiKey,
    requests,
    uploads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
