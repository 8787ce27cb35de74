import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reportIdentity } from '../src/action/report-identity.ts';

const base = { configPath: 'evals.yaml', name: '', args: [] as string[], job: 'evals' };

describe('reportIdentity', () => {
  it('keeps the marker of earlier versions for a config without args or name', () => {
    assert.deepEqual(reportIdentity(base), {
      label: 'evals.yaml',
      marker: '<!-- evalgate-report config="evals.yaml" job="evals" -->',
    });
  });

  it('tells matrix legs apart by their args, quoted as a shell would read them back', () => {
    const leg = reportIdentity({ ...base, args: ['--grid', 'model=small', '--tag', 'two words'] });
    assert.equal(leg.label, 'evals.yaml --grid model=small --tag "two words"');
    assert.equal(
      leg.marker,
      '<!-- evalgate-report config="evals.yaml" args="--grid model=small --tag %22two words%22" job="evals" -->',
    );
    const other = reportIdentity({ ...base, args: ['--grid', 'model=large'] });
    assert.notEqual(other.marker, leg.marker);
  });

  it('uses the name input instead, for the label and the marker', () => {
    const named = reportIdentity({
      ...base,
      name: 'model: small',
      args: ['--grid', 'model=small'],
    });
    assert.deepEqual(named, {
      label: 'model: small',
      marker: '<!-- evalgate-report name="model: small" job="evals" -->',
    });
  });

  it('keeps the marker one HTML comment on one line whatever the values hold', () => {
    const { marker } = reportIdentity({
      ...base,
      name: 'a --> <!-- b "c"\nd --!> é',
      job: 'j>',
    });
    assert.equal(
      marker,
      '<!-- evalgate-report name="a --%3E %3C%21-- b %22c%22%0Ad --%21%3E %C3%A9" job="j%3E" -->',
    );
    assert.equal(marker.indexOf('-->'), marker.length - 3);
    assert.equal(marker.lastIndexOf('<!--'), 0);
  });
});
