import { describe, expectTypeOf, it } from 'vitest';
import type { ComputeApi, ComputeStats, IndexRows, ModelEmbedderSpec, PartitionExport, ScanCandidates, ScanHit, ScanRequest, ScanResult } from '../../src/worker/api';
import type { ComputeCalls } from '../../src/worker/client';
import type { Cloneable, NotCloneableMethods } from './cloneable';

describe('Cloneable', () => {
  it('accepts plain data and typed arrays, and refuses functions and class instances', () => {
    expectTypeOf<Cloneable<{ ids: string[]; vectors: Float32Array; note?: string; at: number | null }>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<{ rows: { id: string }[] }>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<{ onProgress: () => void }>>().toEqualTypeOf<false>();
    expectTypeOf<Cloneable<{ deep: { deeper: { call?: (x: number) => number } } }>>().toEqualTypeOf<false>();
    expectTypeOf<Cloneable<{ ids: Set<string> }>>().toEqualTypeOf<false>();
    expectTypeOf<Cloneable<{ hits: ScanHit[] } | { run(): void }>>().toEqualTypeOf<boolean>();
  });
});

describe('ComputeApi', () => {
  it('takes and returns only structured-cloneable data in every method', () => {
    expectTypeOf<NotCloneableMethods<ComputeApi>>().toBeNever();
    expectTypeOf<NotCloneableMethods<{ scan(request: ScanRequest): ScanResult; watch(listener: () => void): void }>>().toEqualTypeOf<'watch'>();
  });

  it('keeps each wire type plain data', () => {
    expectTypeOf<Cloneable<IndexRows>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<ScanRequest>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<ScanResult>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<ScanCandidates>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<ComputeStats>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<PartitionExport>>().toEqualTypeOf<true>();
    expectTypeOf<Cloneable<ModelEmbedderSpec>>().toEqualTypeOf<true>();
  });

  it('holds vectors and row columns as typed arrays, so they transfer instead of copying', () => {
    expectTypeOf<IndexRows['vectors']>().toEqualTypeOf<Float32Array>();
    expectTypeOf<IndexRows['updatedAt']>().toEqualTypeOf<Float64Array>();
    expectTypeOf<IndexRows['scopes']>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<ScanRequest['query']>().toEqualTypeOf<Float32Array>();
    expectTypeOf<ComputeApi['embed']>().returns.toEqualTypeOf<Float32Array[]>();
  });

  it('answers a scan with hits or (8-bit codes) candidates, and the store versions the scanned partitions reflect', () => {
    expectTypeOf<ScanResult>().toEqualTypeOf<({ hits: ScanHit[] } | { candidates: ScanCandidates }) & { versions: number[] }>();
    expectTypeOf<ComputeApi['scan']>().parameters.toEqualTypeOf<[ScanRequest]>();
  });
});

describe('ComputeCalls', () => {
  it('is ComputeApi with every result a promise, the same over Comlink and in-process', () => {
    expectTypeOf<keyof ComputeCalls>().toEqualTypeOf<keyof ComputeApi>();
    // Comlink's Remote spreads a union result over promises (Promise<false> | Promise<true>): compare what they resolve to.
    expectTypeOf<ComputeCalls['scan']>().parameters.toEqualTypeOf<[request: ScanRequest]>();
    expectTypeOf<Awaited<ReturnType<ComputeCalls['scan']>>>().toEqualTypeOf<ScanResult>();
    expectTypeOf<ComputeCalls['applyChanges']>().parameters.toEqualTypeOf<[key: string, fromVersion: number, toVersion: number, upserts: IndexRows, removals: string[]]>();
    expectTypeOf<Awaited<ReturnType<ComputeCalls['applyChanges']>>>().toEqualTypeOf<boolean>();
    expectTypeOf<ComputeCalls['loadModel']>().returns.toEqualTypeOf<Promise<{ id: string; dim: number }>>();
    expectTypeOf<Awaited<ReturnType<ComputeCalls['exportPartition']>>>().toEqualTypeOf<PartitionExport | null>();
  });
});
