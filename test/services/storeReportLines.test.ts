// The retention lines of `/checkpoints` and `rewind checkpoints` say what is in force.
import { describe, expect, it } from 'vitest';
import type { StoreReport } from '../../src/checkpoints/index.js';
import { storeReportLines } from '../../src/services/store/storeReport.js';

function report(retention: Partial<StoreReport['retention']>): StoreReport {
  return {
    project: '/p',
    store: '/s/projects/p',
    checkpoints: 3,
    projectBytes: 1024,
    allBytes: 1024,
    projects: [],
    orphans: [],
    oldest: null,
    newest: null,
    retention: { days: 14, maxGb: 5, dueNow: 0, nextAt: null, overCap: false, sizeDropHeld: false, ...retention },
  };
}

const retentionOf = (lines: string[]) => lines.filter((line) => /Retention|next:|over \d/.test(line));

describe('the retention lines', () => {
  it('with 0 days: no age limit, and the size cap still said to hold', () => {
    expect(retentionOf(storeReportLines(report({ days: 0 })))).toEqual(['Retention: checkpoint_retention_days 0 (no age limit), checkpoint_max_gb 5', '  next: nothing goes by age; over 5 GB the oldest half goes']);
    expect(retentionOf(storeReportLines(report({ days: 0, overCap: true })))).toContain('  this store is over 5 GB: the oldest half of its checkpoints goes at the next open');
  });

  it('with an age limit: what goes next', () => {
    expect(retentionOf(storeReportLines(report({ days: 14, dueNow: 2 })))).toEqual([
      'Retention: checkpoint_retention_days 14, checkpoint_max_gb 5',
      '  next: 2 checkpoint(s) older than 14 day(s) go the next time rewind opens this project (`rewind prune` now)',
    ]);
  });
});
