import { describe, expect, it } from 'vitest';
import { appPartition, partitionOf, recordUserId, userPartition } from '../../src/storage/owner';

const ADA = { userId: 'ada', appName: 'notes' };

describe('recordUserId', () => {
  it("stores '' for app scope and the owner's userId for user and session scope", () => {
    expect(recordUserId(ADA, 'app')).toBe('');
    expect(recordUserId(ADA, 'user')).toBe('ada');
    expect(recordUserId(ADA, 'session')).toBe('ada');
  });

  it("puts a record stored with it in the app's partition for app scope and the owner's otherwise", () => {
    for (const scope of ['user', 'session', 'app'] as const) {
      const record = { appName: ADA.appName, userId: recordUserId(ADA, scope), scope };
      expect(partitionOf(record)).toBe(scope === 'app' ? appPartition('notes') : userPartition(ADA));
    }
  });
});
