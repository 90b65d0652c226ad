import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KeyedLimit } from '../../src/concurrency/keyed-limit.ts';

const tick = () => new Promise((r) => setImmediate(r));

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('KeyedLimit', () => {
  test('runs at most `limit` per key, the rest in arrival order; other keys are not held up', async () => {
    const limit = new KeyedLimit(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const runs = gates.map((g, i) =>
      limit.run('business-a', async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    let otherRan = false;
    const other = limit.run('business-b', async () => {
      otherRan = true;
    });
    await tick();
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual(limit.load('business-a'), { active: 2, waiting: 3 });
    assert.equal(otherRan, true);
    await other;
    gates[1]!.resolve();
    await tick();
    assert.deepEqual(started, [0, 1, 2]);
    gates[0]!.reject(new Error('failed'));
    await assert.rejects(runs[0]!, /failed/);
    await tick();
    assert.deepEqual(started, [0, 1, 2, 3], 'a failure frees its place too');
    for (const g of gates) g.resolve();
    assert.deepEqual(await Promise.all(runs.slice(1)), [1, 2, 3, 4]);
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    assert.deepEqual(limit.load('business-a'), { active: 0, waiting: 0 });
  });

  test('refuses a limit below one', () => {
    assert.throws(() => new KeyedLimit(0));
  });
});
