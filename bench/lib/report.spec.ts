const { applyRelativeTargets } = require('./report');

function outcomes(purchaseRps: number, slowRps: number, ceilingRps?: number) {
  const target = { minShareOf: { id: 'purchase', share: 0.7, ceilingRps } };
  return [
    { id: 'purchase', status: 'ran', result: { rps: purchaseRps }, verdict: { status: 'PASS', misses: [] } },
    { id: 'slow', status: 'ran', target, result: { rps: slowRps }, verdict: { status: 'PASS', misses: [] } },
  ];
}

describe('bench relative targets', () => {
  it('takes the share of the other scenario when it stays under the ceiling', () => {
    const run = outcomes(1000, 650, 1280);
    applyRelativeTargets(run);
    expect(run[1].share).toBe(0.65);
    expect(run[1].verdict.status).toBe('MISS');
    expect(run[1].verdict.misses[0]).toBe('65% of purchase (1000 req/s) < 70%');
  });

  it('takes the share of the ceiling when the other scenario outruns it', () => {
    const run = outcomes(2500, 1067, 1280);
    applyRelativeTargets(run);
    expect(run[1].share).toBe(0.834);
    expect(run[1].verdict.status).toBe('PASS');
    expect(run[1].shareOf).toBe('the 1280 req/s ceiling (purchase: 2500 req/s)');
  });

  it('misses against the ceiling too', () => {
    const run = outcomes(2500, 800, 1280);
    applyRelativeTargets(run);
    expect(run[1].verdict.status).toBe('MISS');
    expect(run[1].verdict.misses[0]).toBe('63% of the 1280 req/s ceiling (purchase: 2500 req/s) < 70%');
  });

  it('has no ceiling unless the target names one', () => {
    const run = outcomes(2500, 1067);
    applyRelativeTargets(run);
    expect(run[1].verdict.status).toBe('MISS');
    expect(run[1].share).toBe(0.427);
  });
});

describe('bench memory table', () => {
  it('prints every RSS with one decimal', () => {
    const { memoryTable, memoryVerdicts } = require('./report');
    const table = memoryTable(
      memoryVerdicts([{ rssMb: { gateway: 159.0, payments: 148.94 } }], ['gateway', 'payments']),
    );
    expect(table).toContain('159.0 MB');
    expect(table).toContain('148.9 MB');
  });
});
