import { describe, expect, it } from 'vitest';
import { ClosedError, ConflictError, EngramError, isEngramError, NotFoundError, PermissionError, PluginError, QuotaError, StorageError, ValidationError, WorkerError } from '../src/index';
import { toStorageError } from '../src/errors';

describe('EngramError', () => {
  it('sets name to the class name for every subclass', () => {
    const classes = [EngramError, PermissionError, NotFoundError, ConflictError, StorageError, ClosedError, QuotaError, WorkerError, PluginError];
    for (const Class of classes) {
      const error = new Class('boom');
      expect(error.name).toBe(Class.name);
      expect(error).toBeInstanceOf(EngramError);
      expect(error).toBeInstanceOf(Error);
    }
    expect(new QuotaError('x')).toBeInstanceOf(StorageError);
  });

  it('keeps the cause when one is given', () => {
    const cause = new Error('inner');
    expect(new StorageError('outer', { cause }).cause).toBe(cause);
  });
});

describe('ValidationError', () => {
  it('prefixes the message with the path and keeps it when constructed', () => {
    const error = new ValidationError('options.userId', 'must not be empty');
    expect(error.name).toBe('ValidationError');
    expect(error.path).toBe('options.userId');
    expect(error.message).toBe('options.userId: must not be empty');
  });
});

describe('isEngramError', () => {
  it('recognises an engram error by name when its class was lost crossing the worker', () => {
    const cloned = Object.assign(new Error('the worker died'), { name: 'WorkerError' });
    expect(isEngramError(cloned)).toBe(true);
    expect(isEngramError(new WorkerError('x'))).toBe(true);
    expect(isEngramError(Object.assign(new Error('closed'), { name: 'ClosedError' }))).toBe(true);
  });

  it('returns false when the value is a foreign error or not an error', () => {
    expect(isEngramError(new TypeError('x'))).toBe(false);
    expect(isEngramError({ name: 'WorkerError', message: 'x' })).toBe(false);
    expect(isEngramError('ValidationError')).toBe(false);
    expect(isEngramError(null)).toBe(false);
  });
});

describe('toStorageError', () => {
  it('maps a quota failure to QuotaError when Dexie wraps it as inner', () => {
    const inner = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    const dexie = Object.assign(new Error('abort'), { name: 'AbortError', inner });
    expect(toStorageError(dexie, 'writing')).toBeInstanceOf(QuotaError);
    expect(toStorageError(Object.assign(new Error('full'), { name: 'QuotaExceededError' }), 'writing')).toBeInstanceOf(QuotaError);
  });

  it('says on a quota failure that forgetSource, forget(id) and prune still work, that every other write needs room, not that an erasure frees it', () => {
    const message = toStorageError(Object.assign(new Error('full'), { name: 'QuotaExceededError' }), 'writing memories').message;
    expect(message).toMatch(/^writing memories failed: the browser's storage quota for this origin is exhausted\. Nothing was written\./);
    expect(message).toMatch(/forgetSource, forget\(id\) and prune still work/);
    expect(message).toMatch(/every other write needs room/);
    expect(message).not.toMatch(/free space \(forgetSource/);
  });

  it('wraps anything else in StorageError with the cause and passes engram errors through', () => {
    const cause = new Error('closed');
    const wrapped = toStorageError(cause, 'reading memories');
    expect(wrapped).toBeInstanceOf(StorageError);
    expect(wrapped.message).toMatch(/^reading memories failed in IndexedDB \(Error: closed\)/);
    expect(wrapped.cause).toBe(cause);
    const conflict = new ConflictError('moved');
    expect(toStorageError(conflict, 'x')).toBe(conflict);
    expect(toStorageError('a string', 'x')).toBeInstanceOf(StorageError);
  });
});
