import { describe, expect, it } from 'vitest';
import { ConflictError, IdCollisionError, ValidationError } from '../../src/errors';
import { appPartition, userPartition, type Storage } from '../../src/storage/contract';
import { writeOwner } from '../../src/storage/write-owner';
import { MAX_ATTEMPTS } from '../../src/storage/write-lock';
import { createMemoryStorage } from '../helpers/memory-storage';

const ADA = { userId: 'ada', appName: 'notes' };

function openStorage(): Promise<Storage> {
  return createMemoryStorage().open({ name: 'write-owner', embedder: { id: 'test', dim: 4 } });
}

/** A commit by a writer outside the lock: it bumps the partition under whoever read it before. */
async function writeOutsideLock(storage: Storage, partition: string): Promise<void> {
  const versions = await storage.records.versions([partition]);
  await storage.records.commit({ records: [], expected: versions });
}

describe('writeOwner', () => {
  it('decides again on the new version when a writer outside the lock committed in between', async () => {
    const storage = await openStorage();
    const seen: (number | undefined)[] = [];
    const result = await writeOwner(storage, ADA, async (write) => {
      seen.push(write.versions.get(write.partition));
      if (seen.length === 1) await writeOutsideLock(storage, write.partition);
      await write.commit({ records: [] });
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([0, 1]);
    expect((await storage.records.versions([userPartition(ADA)])).get(userPartition(ADA))).toBe(2);
  });

  it('passes the ConflictError on after MAX_ATTEMPTS conflicting commits', async () => {
    const storage = await openStorage();
    let attempts = 0;
    const write = writeOwner(storage, ADA, async (write) => {
      attempts++;
      await writeOutsideLock(storage, write.partition);
      await write.commit({ records: [] });
    });
    await expect(write).rejects.toThrow(ConflictError);
    expect(attempts).toBe(MAX_ATTEMPTS);
  });

  it('tries once when attempts is 1', async () => {
    const storage = await openStorage();
    let attempts = 0;
    const write = writeOwner(
      storage,
      ADA,
      async (write) => {
        attempts++;
        await writeOutsideLock(storage, write.partition);
        await write.commit({ records: [] });
      },
      { attempts: 1 },
    );
    await expect(write).rejects.toThrow(ConflictError);
    expect(attempts).toBe(1);
  });

  it('decides again after an id collision without spending an attempt', async () => {
    const storage = await openStorage();
    let attempts = 0;
    const result = await writeOwner(
      storage,
      ADA,
      async () => {
        if (++attempts <= 3) throw new IdCollisionError('id taken');
        return attempts;
      },
      { attempts: 1 },
    );
    expect(result).toBe(4);
  });

  it('passes any other error on at once', async () => {
    const storage = await openStorage();
    let attempts = 0;
    const write = writeOwner(storage, ADA, async () => {
      attempts++;
      throw new ValidationError('text', 'is empty');
    });
    await expect(write).rejects.toThrow(ValidationError);
    expect(attempts).toBe(1);
  });

  it("writes the app's partition for scope 'app', whoever the user", async () => {
    const storage = await openStorage();
    const partitions = await Promise.all([
      writeOwner(storage, ADA, async (write) => write.partition, { scope: 'app' }),
      writeOwner(storage, { ...ADA, userId: 'bob' }, async (write) => write.partition, { scope: 'app' }),
      writeOwner(storage, ADA, async (write) => write.partition, { scope: 'session' }),
    ]);
    expect(partitions).toEqual([appPartition('notes'), appPartition('notes'), userPartition(ADA)]);
  });

  it("reads the versions from the records alone with versions: 'records', and from the vector layer by default", async () => {
    const storage = await openStorage();
    const ensured: (readonly string[])[] = [];
    const ensure = storage.vectors.ensure.bind(storage.vectors);
    storage.vectors.ensure = (keys) => (ensured.push(keys), ensure(keys));
    await writeOwner(storage, ADA, async (write) => write.versions, { versions: 'records' });
    expect(ensured).toEqual([]);
    const versions = await writeOwner(storage, ADA, async (write) => write.versions);
    expect(ensured).toEqual([[userPartition(ADA)]]);
    expect([...versions]).toEqual([[userPartition(ADA), 0]]);
  });
});
