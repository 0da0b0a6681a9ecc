import { describe, expectTypeOf, it } from 'vitest';
import {
  type AbortedError,
  type ClosedError,
  type ConflictError,
  type EmbedderMismatchError,
  type EncryptionKeyError,
  EngramError,
  type IdCollisionError,
  isEngramError,
  type ModelUnavailableError,
  NotFoundError,
  type PermissionError,
  PluginError,
  type QuotaError,
  type StorageError,
  type StorageEvictedError,
  ValidationError,
  type WorkerError,
} from 'engram';

describe('error classes', () => {
  it('derive from EngramError, itself an Error', () => {
    expectTypeOf<EngramError>().toExtend<Error>();
    expectTypeOf<ValidationError | PermissionError | NotFoundError | ConflictError | StorageError | ClosedError>().toExtend<EngramError>();
    expectTypeOf<WorkerError | PluginError | AbortedError | EmbedderMismatchError | EncryptionKeyError>().toExtend<EngramError>();
    expectTypeOf<IdCollisionError>().toExtend<ConflictError>();
    expectTypeOf<QuotaError>().toExtend<StorageError>();
    expectTypeOf<StorageEvictedError>().toExtend<StorageError>();
    expectTypeOf<ModelUnavailableError>().toExtend<PluginError>();
  });

  it('take a message and an optional cause', () => {
    expectTypeOf(EngramError).constructorParameters.toEqualTypeOf<[message: string, options?: { cause?: unknown }]>();
    expectTypeOf(NotFoundError).constructorParameters.toEqualTypeOf<[message: string, options?: { cause?: unknown }]>();
    expectTypeOf(PluginError).constructorParameters.toEqualTypeOf<[message: string, options?: { cause?: unknown; status?: number }]>();
  });

  it('carry what a caller handles them by', () => {
    expectTypeOf(ValidationError).constructorParameters.toEqualTypeOf<[path: string, message: string, options?: { cause?: unknown }]>();
    expectTypeOf<ValidationError['path']>().toEqualTypeOf<string>();
    expectTypeOf<StorageEvictedError['since']>().toEqualTypeOf<number>();
    expectTypeOf<PluginError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ModelUnavailableError['availability']>().toEqualTypeOf<string>();
    expectTypeOf<EngramError['name']>().toEqualTypeOf<string>();
  });
});

describe('isEngramError', () => {
  it('narrows unknown to EngramError', () => {
    expectTypeOf(isEngramError).parameters.toEqualTypeOf<[error: unknown]>();
    expectTypeOf(isEngramError).guards.toEqualTypeOf<EngramError>();
  });
});
