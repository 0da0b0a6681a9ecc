import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { KERNEL_SOURCE, KERNEL_TARGET, renderKernelModule } from '../../scripts/build-kernel';

const STALE = 'src/worker/kernel-wasm.ts is not what src/worker/kernel.wat compiles to: run `npx tsx scripts/build-kernel.ts` and commit both files';

describe('kernel-wasm.ts', () => {
  it('is byte for byte what scripts/build-kernel.ts makes of kernel.wat', async () => {
    const [source, committed] = await Promise.all([readFile(KERNEL_SOURCE, 'utf8'), readFile(KERNEL_TARGET, 'utf8')]);
    const generated = await renderKernelModule(source);
    expect(committed === generated, STALE).toBe(true);
  });

  it('differs when kernel.wat changes by one instruction', async () => {
    const source = await readFile(KERNEL_SOURCE, 'utf8');
    // The dot product's lane-wise multiply becomes a subtract: same shape, another binary.
    const edited = source.replace('f32x4.mul', 'f32x4.sub');
    expect(edited).not.toBe(source);
    expect(await renderKernelModule(edited)).not.toBe(await readFile(KERNEL_TARGET, 'utf8'));
  });
});
