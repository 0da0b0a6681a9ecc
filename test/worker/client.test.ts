import '@vitest/web-worker';
import { describe, expect, it } from 'vitest';
import { COMPUTE_METHODS, createComputeClient } from '../../src/worker/client';
import { createCompute } from '../../src/worker/compute';

/** The methods the running compute module has: what a client must forward. */
const computeMethods = () =>
  Object.entries(createCompute())
    .filter(([, value]) => typeof value === 'function')
    .map(([name]) => name)
    .sort();

describe('createComputeClient', () => {
  it('forwards exactly the compute module’s methods when the list is compared with the running module', () => {
    expect([...COMPUTE_METHODS].sort()).toEqual(computeMethods());
  });

  for (const worker of ['off', 'auto'] as const) {
    it(`has a callable function for every compute method when worker is ${worker}`, async () => {
      const client = createComputeClient({ worker });
      expect(client.location).toBe(worker === 'off' ? 'in-process' : 'worker');
      const missing = computeMethods().filter((method) => typeof (client as unknown as Record<string, unknown>)[method] !== 'function');
      expect(missing).toEqual([]);
      // One real round trip through the forwarding: the answer is the compute module's.
      expect(await client.partitionVersion('none')).toBe(-1);
      expect((await client.embed(['tea'], 8))[0]).toEqual(createCompute().embed(['tea'], 8)[0]);
      client.close();
    });
  }
});
