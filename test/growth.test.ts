import { describe, expect, it } from 'vitest';
import { expectLinearGrowth } from './helpers/growth';

// The check every "in linear time" test relies on must tell linear work from quadratic work.
const linear = (n: number) => {
  let x = 0;
  for (let i = 0; i < n * 200; i++) x = (x + i * 31) | 0;
  return x;
};
const quadratic = (n: number) => {
  let x = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) x = (x + (i ^ j)) | 0;
  return x;
};

describe('expectLinearGrowth', () => {
  it('passes linear work and reports its 4n/n ratio', async () => {
    const { ratios } = await expectLinearGrowth([{ label: 'linear', run: linear }], 10_000);
    expect(ratios['linear']).toBeGreaterThan(2);
  });

  it('fails quadratic work', async () => {
    await expect(expectLinearGrowth([{ label: 'quadratic', run: quadratic }], 1_000)).rejects.toThrow(/quadratic: .* ms at \d+/);
  });
});
