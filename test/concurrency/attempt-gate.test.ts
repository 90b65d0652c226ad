import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttemptGate, SLOT_TAKEN, type GateOptions } from '../../src/concurrency/attempt-gate.ts';

class Refused extends Error {}
const STAFF: GateOptions = { exclusive: true, isRefusal: (e) => e instanceof Refused };
const SEATS: GateOptions = { exclusive: false, isRefusal: (e) => e instanceof Refused };

/** An attempt the test finishes by hand, recording that it ran. */
function controlled<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const p = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const state = { ran: false };
  return {
    state,
    fn: () => {
      state.ran = true;
      return p;
    },
    resolve,
    reject,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('AttemptGate', () => {
  test('a booked attempt answers every waiter on an overlapping time without running them', async () => {
    const gate = new AttemptGate();
    const first = controlled<string>();
    const a = gate.run('staff:1', { from: 0, to: 30 }, STAFF, first.fn);
    const waiters = [
      { from: 0, to: 30 },
      { from: 15, to: 45 },
    ].map((range) => {
      const c = controlled<string>();
      return { c, p: gate.run('staff:1', range, STAFF, c.fn) };
    });
    await tick();
    assert.equal(first.state.ran, true);
    assert.ok(
      waiters.every((w) => !w.c.state.ran),
      'waiters wait in memory while the first is in flight',
    );
    first.resolve('booking');
    assert.equal(await a, 'booking');
    for (const w of waiters) {
      assert.equal(await w.p, SLOT_TAKEN);
      assert.equal(w.c.state.ran, false);
    }
  });

  test('attempts on times that do not overlap, or on another calendar, run side by side', async () => {
    const gate = new AttemptGate();
    const a = controlled<string>();
    const b = controlled<string>();
    const c = controlled<string>();
    const pa = gate.run('staff:1', { from: 0, to: 30 }, STAFF, a.fn);
    const pb = gate.run('staff:1', { from: 30, to: 60 }, STAFF, b.fn);
    const pc = gate.run('staff:2', { from: 0, to: 30 }, STAFF, c.fn);
    await tick();
    assert.deepEqual([a.state.ran, b.state.ran, c.state.ran], [true, true, true]);
    a.resolve('a');
    b.resolve('b');
    c.resolve('c');
    assert.deepEqual(await Promise.all([pa, pb, pc]), ['a', 'b', 'c']);
  });

  test('a refusal answers waiters on exactly that time; a waiter on another overlapping time asks for itself', async () => {
    const gate = new AttemptGate();
    const first = controlled<string>();
    const p1 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, first.fn);
    const sameTime = controlled<string>();
    const p2 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, sameTime.fn);
    const shifted = controlled<string>();
    const p3 = gate.run('staff:1', { from: 15, to: 45 }, STAFF, shifted.fn);
    first.reject(new Refused());
    assert.equal(await p1, SLOT_TAKEN, 'its own refusal is SLOT_TAKEN');
    assert.equal(await p2, SLOT_TAKEN);
    assert.equal(sameTime.state.ran, false);
    await tick();
    assert.equal(shifted.state.ran, true, 'the conflicting booking may not cover 15-45');
    shifted.resolve('shifted');
    assert.equal(await p3, 'shifted');
  });

  test('any other failure is rethrown and lets the next waiter try for itself', async () => {
    const gate = new AttemptGate();
    const first = controlled<string>();
    const p1 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, first.fn);
    const second = controlled<string>();
    const p2 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, second.fn);
    first.reject(new Error('connection lost'));
    await assert.rejects(p1, /connection lost/);
    await tick();
    assert.equal(second.state.ran, true);
    second.resolve('second');
    assert.equal(await p2, 'second');
  });

  test('seats: a taken seat lets the next waiter run; "full" answers the rest', async () => {
    const gate = new AttemptGate();
    const all = { from: 0, to: 1 };
    const seat1 = controlled<string>();
    const seat2 = controlled<string>();
    const seat3 = controlled<string>();
    const p1 = gate.run('session:1', all, SEATS, seat1.fn);
    const p2 = gate.run('session:1', all, SEATS, seat2.fn);
    const p3 = gate.run('session:1', all, SEATS, seat3.fn);
    await tick();
    assert.deepEqual([seat1.state.ran, seat2.state.ran, seat3.state.ran], [true, false, false], 'one seat-take at a time');
    seat1.resolve('seat 1');
    assert.equal(await p1, 'seat 1');
    await tick();
    assert.equal(seat2.state.ran, true);
    seat2.reject(new Refused());
    assert.equal(await p2, SLOT_TAKEN);
    assert.equal(await p3, SLOT_TAKEN);
    assert.equal(seat3.state.ran, false);
  });

  test('a waiter gives up waiting after maxWaitMs and asks for itself', async () => {
    const gate = new AttemptGate(() => {}, 50);
    const stuck = controlled<string>();
    const p1 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, stuck.fn);
    const started = performance.now();
    assert.equal(await gate.run('staff:1', { from: 0, to: 30 }, STAFF, async () => 'second'), 'second');
    assert.ok(performance.now() - started >= 45, 'it waited first');
    stuck.resolve('first');
    assert.equal(await p1, 'first');
  });

  test('every outcome is reported', async () => {
    const seen: string[] = [];
    const gate = new AttemptGate((v) => seen.push(v));
    const first = controlled<string>();
    const p1 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, first.fn);
    const p2 = gate.run('staff:1', { from: 0, to: 30 }, STAFF, async () => 'never');
    first.resolve('first');
    await Promise.all([p1, p2]);
    await gate.run('staff:1', { from: 0, to: 30 }, STAFF, () => Promise.reject(new Refused())).catch(() => {});
    await gate.run('staff:1', { from: 0, to: 30 }, STAFF, () => Promise.reject(new Error('x'))).catch(() => {});
    assert.deepEqual(seen, ['booked', 'answered_in_process', 'refused', 'failed']);
  });

  test('nothing is left behind: a later attempt on the same time runs at once', async () => {
    const gate = new AttemptGate();
    assert.equal(await gate.run('staff:1', { from: 0, to: 30 }, STAFF, async () => 'one'), 'one');
    assert.equal(await gate.run('staff:1', { from: 0, to: 30 }, STAFF, async () => 'two'), 'two', 'a settled attempt answers nobody later');
  });
});
