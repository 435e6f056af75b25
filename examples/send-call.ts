/**
 * Sends examples/call.json with @callscore/client (retries 429/5xx by the contract's rules), then reads the
 * call's status back.
 *   CALLSCORE_API_KEY=svc_sk_... npx tsx examples/send-call.ts
 */
import { readFile } from 'node:fs/promises';
import { CallscoreApiError, CallscoreClient, type CreateCallRequest } from '@callscore/client';

const client = new CallscoreClient({
  baseUrl: process.env.CALLSCORE_BASE_URL ?? 'http://localhost:8080/v1',
  apiKey: process.env.CALLSCORE_API_KEY,
  userAgent: 'callscore-example/1.0',
  onRetry: ({ attempt, delayMs, error }) =>
    console.error(`attempt ${attempt} failed (${error.message}); retrying in ${delayMs} ms`),
});

const call = JSON.parse(await readFile(new URL('./call.json', import.meta.url), 'utf8')) as CreateCallRequest;

try {
  const result = await client.createCall(call);
  console.log(`${result.created ? 'Created' : 'Already there'}: ${result.id} (${result.status})`);
  console.log(`View it at ${result.app_url}`);
  const current = await client.getCall(result.id);
  console.log(`Status now: ${current.status}${current.skip_reason ? ` (${current.skip_reason})` : ''}`);
} catch (err) {
  if (err instanceof CallscoreApiError) {
    // Switch on `code`, never on `message`; quote `requestId` to support.
    console.error(`HTTP ${err.status} ${err.code}: ${err.message}`);
    for (const f of err.fields) console.error(`  ${f.field}: ${f.message}`);
    console.error(`  request id: ${err.requestId}`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
