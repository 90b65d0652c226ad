import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lru } from '../src/cache/lru.ts';

test('an LRU bounded by count forgets the least recently used entry first', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  assert.equal(lru.get('a'), 1); // a is now the most recent
  lru.set('c', 3);
  assert.deepEqual([lru.get('a'), lru.get('b'), lru.get('c')], [1, undefined, 3]);
  assert.equal(lru.size, 2);
});

test('an LRU bounded by weight evicts until the total fits, and never keeps an entry heavier than the bound', () => {
  const lru = new Lru<string, number[]>(10, (v) => v.length);
  lru.set('a', [1, 2, 3, 4]);
  lru.set('b', [1, 2, 3, 4]);
  assert.equal(lru.weight, 8);
  lru.set('c', [1, 2, 3, 4, 5]); // 13 > 10: a goes
  assert.equal(lru.get('a'), undefined);
  assert.equal(lru.weight, 9);
  lru.set('b', [1]); // replacing an entry replaces its weight
  assert.equal(lru.weight, 6);
  lru.set('huge', new Array(11).fill(0));
  assert.equal(lru.get('huge'), undefined, 'heavier than the whole bound');
  assert.equal(lru.weight, 0, 'and it pushed everything else out on its way');
  lru.set('d', [1]);
  lru.delete('d');
  assert.equal(lru.weight, 0);
});
