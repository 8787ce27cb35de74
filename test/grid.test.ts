import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandGrid } from '../src/plan/grid.ts';

void test('no keys: one run without parameters', () => {
  assert.deepEqual(expandGrid({}), [{}]);
});

void test('one key: one run per value, in order', () => {
  assert.deepEqual(expandGrid({ model: ['small', 'large'] }), [
    { model: 'small' },
    { model: 'large' },
  ]);
});

void test('two keys: nested-loop order, the last key varying fastest', () => {
  assert.deepEqual(expandGrid({ model: ['small', 'large'], temperature: [0, 0.7] }), [
    { model: 'small', temperature: 0 },
    { model: 'small', temperature: 0.7 },
    { model: 'large', temperature: 0 },
    { model: 'large', temperature: 0.7 },
  ]);
});

void test('three keys: full product in nested-loop order, keys in the order given', () => {
  const points = expandGrid({ b: [1, 2], a: ['x', 'y', 'z'], c: [true, false] });
  assert.equal(points.length, 12);
  assert.equal(
    points.map((p) => `${String(p.b)}${String(p.a)}${p.c ? 'T' : 'F'}`).join(' '),
    '1xT 1xF 1yT 1yF 1zT 1zF 2xT 2xF 2yT 2yF 2zT 2zF',
  );
  assert.deepEqual(Object.keys(points[0]!), ['b', 'a', 'c']);
});

void test('values keep their types, and a key without values yields no runs', () => {
  const object = { nested: [1] };
  assert.deepEqual(expandGrid({ opts: [object, null] }), [{ opts: object }, { opts: null }]);
  assert.equal(expandGrid({ opts: [object] })[0]!.opts, object);
  assert.deepEqual(expandGrid({ model: ['a'], temperature: [] }), []);
});

void test('the input is not modified and every point is a fresh object', () => {
  const grid = { model: ['a', 'b'] };
  const points = expandGrid(grid);
  assert.deepEqual(grid, { model: ['a', 'b'] });
  assert.notEqual(points[0], points[1]);
});
