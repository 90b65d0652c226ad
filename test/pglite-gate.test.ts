import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKGROUND_MAX_WAIT_MS, PgliteGate } from '../src/store/pglite-gate.ts';

// PGlite runs a statement synchronously; these stand-ins do the same (no I/O of their own).

test('the event loop gets a turn between two statements, so a request that arrived meanwhile is read', async () => {
  const gate = new PgliteGate();
  let turned = false;
  const seen: boolean[] = [];
  await Promise.all([
    gate.run(false, async () => {
      setImmediate(() => {
        turned = true;
      });
    }),
    gate.run(false, async () => {
      seen.push(turned);
    }),
  ]);
  assert.deepEqual(seen, [true]);
});

test('a statement on a free gate starts after a turn of the loop too', async () => {
  const gate = new PgliteGate();
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  assert.equal(await gate.run(false, async () => turned), true);
});

test('statements run one at a time, requests in arrival order, before waiting background work', async () => {
  const gate = new PgliteGate();
  const order: string[] = [];
  let running = 0;
  const statement = (name: string) => async () => {
    running++;
    assert.equal(running, 1, `${name} ran beside another statement`);
    order.push(name);
    await Promise.resolve();
    running--;
    return name;
  };
  const first = gate.run(false, statement('r1'));
  const background = gate.run(true, statement('b1'));
  const later = [gate.run(false, statement('r2')), gate.run(false, statement('r3'))];
  assert.deepEqual(await Promise.all([first, background, ...later]), ['r1', 'b1', 'r2', 'r3']);
  assert.deepEqual(order, ['r1', 'r2', 'r3', 'b1']);
});

test('a request read during the hand-over still goes before the worker', async () => {
  const gate = new PgliteGate();
  const order: string[] = [];
  const done: Array<Promise<unknown>> = [];
  done.push(
    gate.run(false, async () => {
      order.push('r1');
      // arrives in the turn between r1 and the next statement, as a request read from a socket would
      setImmediate(() => done.push(gate.run(false, async () => order.push('r2'))));
    }),
  );
  done.push(gate.run(true, async () => order.push('b1')));
  await new Promise((resolve) => setTimeout(resolve, 10));
  await Promise.all(done);
  assert.deepEqual(order, ['r1', 'r2', 'b1']);
});

test('background work is not kept waiting past BACKGROUND_MAX_WAIT_MS while requests keep coming', async () => {
  const gate = new PgliteGate();
  let wentAfter = -1;
  const busyFor = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // a statement's synchronous work
    }
  };
  const requests: Array<Promise<unknown>> = [];
  requests.push(gate.run(false, async () => busyFor(1)));
  const background = gate.run(true, async () => {
    wentAfter = requests.length;
  });
  for (let i = 0; i < 200 && wentAfter < 0; i++) {
    requests.push(gate.run(false, async () => busyFor(1)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await background;
  await Promise.all(requests);
  // each request takes at least 1 ms, so the worker went after about BACKGROUND_MAX_WAIT_MS of them
  assert.ok(wentAfter >= 1 && wentAfter < 200, `the worker went after ${wentAfter} requests`);
  assert.ok(wentAfter <= BACKGROUND_MAX_WAIT_MS * 3, `the worker went after ${wentAfter} requests`);
});
