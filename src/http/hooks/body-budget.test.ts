import { describe, expect, it } from 'vitest';
import { createBodyBudget } from './body-budget.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createBodyBudget', () => {
  it('grants what fits at once and makes the rest wait, first come first served', async () => {
    const budget = createBodyBudget(100);
    const first = await budget.acquire(60);
    const order: string[] = [];
    const second = budget.acquire(60).then((release) => (order.push('second'), release));
    const third = budget.acquire(10).then((release) => (order.push('third'), release));
    await tick();
    // 10 bytes would fit, but a small body does not overtake a waiting large one.
    expect(order).toEqual([]);
    first();
    const releaseSecond = await second;
    await third;
    expect(order).toEqual(['second', 'third']);
    releaseSecond();
  });

  it('gives bytes back once however often release is called, and caps a body at the limit', async () => {
    const budget = createBodyBudget(100);
    const big = await budget.acquire(500);
    let granted = false;
    const next = budget.acquire(1).then((release) => ((granted = true), release));
    await tick();
    expect(granted).toBe(false);
    big();
    big();
    (await next)();
    expect(granted).toBe(true);
    const a = await budget.acquire(100);
    let again = false;
    void budget.acquire(1).then(() => (again = true));
    await tick();
    expect(again).toBe(false);
    a();
    await tick();
    expect(again).toBe(true);
  });
});
