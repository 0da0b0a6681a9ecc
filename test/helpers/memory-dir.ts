/**
 * A directory for test data that is synced as it is written (a browser profile, a Chroma
 * server's data): /dev/shm (tmpfs) when the machine has one with room, else the OS temp dir.
 * Syncing to disk made those tests several times slower here; a small /dev/shm (a container's
 * default is 64 MB) would fill up and fail like a quota error, so it is used only with 2 GB free.
 */
import { existsSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ENOUGH = 2 * 1024 ** 3;

export function fastTempRoot(): string {
  if (!existsSync('/dev/shm')) return tmpdir();
  const { bavail, bsize } = statfsSync('/dev/shm');
  return bavail * bsize >= ENOUGH ? '/dev/shm' : tmpdir();
}
