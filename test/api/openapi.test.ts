import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { printOpenApi } from '../../src/http/openapi-document.js';

const run = promisify(execFile);

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with every operation of the contract', async () => {
    const doc = (await printOpenApi(loadConfig({}))) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/v1/calls',
      '/v1/calls/{id}',
      '/v1/openapi.json',
      '/v1/recordings',
    ]);
    expect(
      doc.paths['/v1/calls'].post.requestBody.content['application/json'].schema.additionalProperties,
    ).toBe(false);
    expect(Object.keys(doc.paths['/v1/calls'].post.responses)).toEqual(
      expect.arrayContaining(['200', '202', '409', '422']),
    );
    expect(doc.paths['/v1/openapi.json'].get.security).toEqual([]);
    // Spec: "Path parameter `id`: string, format uuid".
    expect(doc.paths['/v1/calls/{id}'].get.parameters).toEqual([
      expect.objectContaining({
        in: 'path',
        name: 'id',
        required: true,
        schema: { type: 'string', format: 'uuid' },
      }),
    ]);
  });

  it('declares the contract headers: X-Request-Id everywhere, Location on 202, Retry-After on 429 and 503', async () => {
    const doc = (await printOpenApi(loadConfig({}))) as any;
    for (const [path, method] of [
      ['/v1/calls', 'post'],
      ['/v1/calls/{id}', 'get'],
      ['/v1/recordings', 'post'],
    ] as const) {
      for (const [status, response] of Object.entries(doc.paths[path][method].responses) as [string, any][]) {
        expect(response.headers['X-Request-Id'], `${method} ${path} ${status}`).toMatchObject({
          schema: { type: 'string' },
        });
        if (status === '429' || status === '503')
          expect(response.headers['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
      }
    }
    const created = doc.paths['/v1/calls'].post.responses['202'];
    expect(created.headers.Location).toMatchObject({ schema: { type: 'string', format: 'uri' } });
    expect(created.content['application/json'].schema.properties.headers).toBeUndefined();
  });

  it('lists the error codes of each status, declares 503 and the rate-limit headers on every operation', async () => {
    const doc = (await printOpenApi(loadConfig({}))) as any;
    const responses = (path: string, method: string) => doc.paths[path][method].responses;
    const codes = (r: any): string[] =>
      r.content['application/json'].schema.properties.error.properties.code.examples;
    expect(codes(responses('/v1/calls', 'post')['422'])).toEqual(
      expect.arrayContaining([
        'validation_failed',
        'unknown_field',
        'rep_speaker_undetermined',
        'scorecard_not_found',
      ]),
    );
    expect(codes(responses('/v1/calls', 'post')['503'])).toEqual([
      'service_unavailable',
      'inference_unavailable',
    ]);
    expect(codes(responses('/v1/calls/{id}', 'get')['404'])).toEqual(['not_found', 'route_not_found']);
    expect(codes(responses('/v1/recordings', 'post')['422'])).toEqual(
      expect.arrayContaining(['recording_too_large', 'recording_type_not_supported']),
    );
    expect(responses('/v1/calls', 'post')['401'].description).toBe(
      'Error (401): invalid_api_key, api_key_revoked, api_key_owner_inactive.',
    );
    for (const [path, method] of [
      ['/v1/calls', 'post'],
      ['/v1/calls/{id}', 'get'],
      ['/v1/recordings', 'post'],
    ] as const) {
      expect(Object.keys(responses(path, method))).toEqual(
        expect.arrayContaining(['401', '403', '429', '500', '503']),
      );
      for (const response of Object.values(responses(path, method)) as any[])
        expect(Object.keys(response.headers)).toEqual(
          expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining']),
        );
    }
  });

  it('keeps the path of the official base in the server URL (paths carry /v1)', async () => {
    const doc = (await printOpenApi(
      loadConfig({ PUBLIC_API_BASE_URL: 'https://gw.example.com/callscore/v1' }),
    )) as any;
    expect(doc.servers[0].url).toBe('https://gw.example.com/callscore');
    expect((await printOpenApi(loadConfig({}))) as any).toMatchObject({
      servers: [{ url: 'http://localhost:8080' }],
    });
  });

  it('passes redocly lint with no errors', async () => {
    const doc = await printOpenApi(loadConfig({}));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'callscore-openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    try {
      const result = await run('npx', ['redocly', 'lint', file, '--format', 'json'], {
        maxBuffer: 10_000_000,
      }).catch((error: { stdout: string; stderr: string }) => error);
      const report = JSON.parse(result.stdout) as {
        totals: { errors: number };
        problems: { message: string; severity: string }[];
      };
      const errors = report.problems.filter((p) => p.severity === 'error').map((p) => p.message);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
