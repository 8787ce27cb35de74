import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { keyOf, nodeKind, ownPair, ownValue, rangeOf } from '../src/config/yaml-nodes.ts';

const TEXT = 'base: &b {path: a.csv}\nsuite:\n  <<: *b\n  id: qa\n  list: [1]\n  empty:\n';
const doc = parseDocument(TEXT, { merge: true });
const suite = (doc.contents as YAMLMap<unknown, unknown>).items[1]!.value as YAMLMap<
  unknown,
  unknown
>;

describe('yaml nodes', () => {
  it('finds the entries written in a mapping, not those a merge key brings', () => {
    assert.equal(ownPair(suite, 'path'), undefined);
    assert.equal(keyOf(suite.items[0]!), '<<');
    assert.equal(nodeKind(ownValue(suite, 'id')), 'the string "qa"');
  });

  it('says where a node is written', () => {
    const id = ownValue(suite, 'id');
    const [start, end] = rangeOf(id) ?? [];
    assert.equal(TEXT.slice(start, end), 'qa');
    assert.equal(rangeOf('not a node'), undefined);
  });

  it('names what a node is', () => {
    assert.equal(nodeKind(ownValue(suite, 'list')), 'a list');
    assert.equal(nodeKind(ownValue(suite, 'empty')), 'nothing');
    assert.equal(nodeKind(suite.items[0]!.value), 'an alias (*b)');
    assert.ok(isMap(ownValue(doc.contents as YAMLMap<unknown, unknown>, 'base')));
    assert.equal(
      nodeKind(ownValue(doc.contents as YAMLMap<unknown, unknown>, 'base')),
      'a mapping',
    );
    assert.equal(nodeKind(undefined), 'nothing');
  });
});
