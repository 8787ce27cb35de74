/**
 * `applyPins` as golden edits (config before → config after): where a new pin goes in block and
 * flow mappings, and how existing pins are replaced. Every golden output is also re-parsed: it
 * must hold the new pins and read exactly like the input otherwise.
 */
import { describe } from 'node:test';
import { yaml } from './fixtures/config/check.ts';
import { goldenTests, REV, REV2, type Golden } from './helpers/config-pin-goldens.ts';

const goldens: Golden[] = [
  {
    name: 'block mapping: inserted after path:, same indentation, trailing comment kept',
    before: yaml`
      version: 1
      suites:
        - id: capitals
          testset:
            path: testsets/capitals.csv   # the rows
            tags: [smoke]
          function: ./app/answer.ts#answer
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: capitals
          testset:
            path: testsets/capitals.csv   # the rows
            revision: 3f9a1c2b7d4e
            tags: [smoke]
          function: ./app/answer.ts#answer
    `,
  },
  {
    name: 'block mapping: path: is last, the next key is the suite’s',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            tags: [smoke]
            path: a.csv
          function: ./f.ts#f
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            tags: [smoke]
            path: a.csv
            revision: 3f9a1c2b7d4e
          function: ./f.ts#f
    `,
  },
  {
    name: 'block mapping without path: or cases: gets the pin at its end',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            id: shared
            tags: [smoke]
          function: ./f.ts#f
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            id: shared
            tags: [smoke]
            revision: 3f9a1c2b7d4e
          function: ./f.ts#f
    `,
  },
  {
    name: 'flow mapping stays flow',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
        - id: b
          testset: {path: b.csv, tags: [x]}   # spacing as written
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 3f9a1c2b7d4e }
        - id: b
          testset: {path: b.csv, revision: abcdef012345, tags: [x]}   # spacing as written
    `,
  },
  {
    name: 'flow mapping over several lines',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: {
            path: a.csv,  # the rows
          }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: {
            path: a.csv, revision: 3f9a1c2b7d4e,  # the rows
          }
    `,
  },
  {
    name: 'existing pins replaced: plain, double-quoted, single-quoted, tagged',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 000000aaaaaa   # pinned in March
        - id: b
          testset: { path: b.csv, revision: "000000bbbbbb" }
        - id: c
          testset:
            revision: '000000cccccc'
            path: c.csv
        - id: d
          testset:
            path: d.csv
            revision: !!str 000000dddddd
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV2 },
      { suiteIndex: 2, revision: REV },
      { suiteIndex: 3, revision: REV2 },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e   # pinned in March
        - id: b
          testset: { path: b.csv, revision: "abcdef012345" }
        - id: c
          testset:
            revision: '3f9a1c2b7d4e'
            path: c.csv
        - id: d
          testset:
            path: d.csv
            revision: !!str abcdef012345
    `,
  },
  {
    name: 'a longer existing pin keeps its length; a shorter one grows to the default',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 0123456789abcdef01 }
        - id: b
          testset: { path: b.csv, revision: 0a1b2c }
    `,
    updates: [
      { suiteIndex: 0, revision: REV },
      { suiteIndex: 1, revision: REV },
    ],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: 3f9a1c2b7d4e555555 }
        - id: b
          testset: { path: b.csv, revision: 3f9a1c2b7d4e }
    `,
  },
  {
    name: 'length option: full ids',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv }
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    options: { length: 64 },
    after: yaml`
      version: 1
      suites:
        - id: a
          testset: { path: a.csv, revision: ${REV} }
    `,
  },
  {
    name: 'empty revision: gets a value after its colon, before its comment',
    before: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision:   # fill me
    `,
    updates: [{ suiteIndex: 0, revision: REV }],
    after: yaml`
      version: 1
      suites:
        - id: a
          testset:
            path: a.csv
            revision: 3f9a1c2b7d4e   # fill me
    `,
  },
];

describe('applyPins', () => {
  goldenTests(goldens);
});
