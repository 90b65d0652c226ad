/**
 * The matcher that holds docs' ```http examples to the server's answers (test/helpers/doc-http-blocks.ts):
 * if it matched too loosely, a worked example could drift from the server without a test noticing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { docSteps, matchShown, substitute } from './helpers/doc-http-blocks.ts';

const fence = '```';
const match = (shown: unknown, actual: unknown, vars = new Map<string, string>()) => matchShown(shown, actual, vars);

test('objects: the keys shown must match, keys not shown are free', () => {
  assert.equal(match({ a: 1 }, { a: 1, b: 2 }), null);
  assert.match(match({ a: 1 }, { a: 2 })!, /\$\.a: expected 1, got 2/);
  assert.match(match({ a: { b: 'x' } }, { a: {} })!, /\$\.a\.b: missing/);
  assert.notEqual(match({ a: 1 }, [1]), null);
});

test('lists: exact length without "...", and "..." is any run of entries, in order', () => {
  assert.equal(match([1, 2], [1, 2]), null);
  assert.notEqual(match([1, 2], [1, 2, 3]), null, 'an entry the document does not show');
  assert.notEqual(match([1], []), null);
  assert.equal(match(['...', 2, 3, '...'], [1, 2, 3, 4]), null);
  assert.notEqual(match(['...', 2, 4, '...'], [1, 2, 3, 4]), null, 'adjacent shown entries are adjacent');
  assert.equal(match(['...', 4], [1, 2, 3, 4]), null);
  assert.notEqual(match(['...', 3], [1, 2, 3, 4]), null, 'nothing after the last shown entry without "..."');
  assert.equal(match(['...'], []), null);
  assert.equal(match([{ t: '10:30' }, '...'], [{ t: '10:30', x: 1 }, { t: '10:45' }]), null);
});

test('"$NAME" binds the first time and must equal its value after; a failed list placement binds nothing', () => {
  const vars = new Map<string, string>();
  assert.equal(match({ id: '$ID' }, { id: 'abc' }, vars), null);
  assert.equal(vars.get('ID'), 'abc');
  assert.equal(match(['$ID'], ['abc'], vars), null);
  assert.match(match({ id: '$ID' }, { id: 'xyz' }, vars)!, /expected \$ID \(abc\), got xyz/);
  assert.notEqual(match({ id: '$OTHER' }, { id: 1 }, vars), null, 'a variable stands for a string');
  const fresh = new Map<string, string>();
  assert.notEqual(match(['...', '$X', 9], [1, 'a', 2], fresh), null);
  assert.equal(fresh.has('X'), false);
  assert.equal(substitute('/bookings/$ID?x=$ID', vars), '/bookings/abc?x=abc');
  assert.throws(() => substitute('$NOPE', vars), /\$NOPE is used before an answer showed it/);
});

test('a request block needs its answer block right after it', () => {
  const request = `${fence}http\nPOST /v1/x\nAuthorization: Bearer $K\n\n{ "a": 1 }\n${fence}\n`;
  const answer = `${fence}http\nHTTP/1.1 201 Created\n\n{ "data": {} }\n${fence}\n`;
  const [step] = docSteps(`${request}\ntext\n\n${answer}`);
  assert.deepEqual(step, {
    title: 'POST /v1/x',
    request: { method: 'POST', path: '/v1/x', headers: { authorization: 'Bearer $K' }, body: '{ "a": 1 }' },
    status: 201,
    shown: { data: {} },
  });
  assert.throws(() => docSteps(request), /the next block is not its answer/);
  assert.throws(() => docSteps(`${request}${request}`), /the next block is not its answer/);
  assert.throws(() => docSteps(answer), /is not a request line/);
});
