/**
 * The ingest body budget (src/http/hooks/body-budget.ts) over real sockets: two 1 MiB bodies in flight fill it,
 * a third request waits until one of them ends, and clients that leave, while holding or while waiting, give
 * their share back.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { callBody, KEYS } from '../helpers/workspace.js';

describe('POST /v1/calls body budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('sqlite');
  });
  afterAll(async () => t?.close());

  /** A request that declares a 1 MiB body and sends none of it: it holds its share of the budget. */
  async function stalledUpload(): Promise<net.Socket> {
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/calls HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${KEYS.full}\r\nContent-Length: 1048576\r\n\r\n{`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    return socket;
  }

  async function settles(promise: Promise<unknown>, ms: number): Promise<boolean> {
    return Promise.race([
      promise.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
    ]);
  }

  it('makes a third body wait while two 1 MiB bodies are in flight, and lets it in when one leaves', async () => {
    const holders = [await stalledUpload(), await stalledUpload()];
    const waiting = t.api('POST', '/v1/calls', { body: callBody() });
    expect(await settles(waiting, 500)).toBe(false);
    holders[0]!.destroy();
    expect((await waiting).status).toBe(202);
    holders[1]!.destroy();
  });

  it('a client that leaves while waiting does not keep its share', async () => {
    const holders = [await stalledUpload(), await stalledUpload()];
    const leaver = await stalledUpload(); // waits for the budget
    leaver.destroy();
    for (const h of holders) h.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Had the leaver kept its 1 MiB, this holder would fill the budget and the next request would wait.
    const holder = await stalledUpload();
    const next = t.api('POST', '/v1/calls', { body: callBody() });
    expect(await settles(next, 5_000)).toBe(true);
    expect((await next).status).toBe(202);
    holder.destroy();
  });
});
