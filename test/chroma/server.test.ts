/**
 * The server lifecycle the tests, the walkthrough and the bench use (scripts/chroma-server.ts):
 * a loopback port of its own, a heartbeat before it is handed out, data kept across a SIGKILL
 * and restart, and no process left after stop.
 */
import { describe, expect, it } from 'vitest';
import { ChromaClient } from 'chromadb';
import { startChromaServer } from '../../scripts/chroma-server';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startChromaServer', () => {
  it('keeps the data across a SIGKILL and restart, and leaves no process when stopped', async () => {
    const server = await startChromaServer();
    const first = server.pid!;
    try {
      expect(server.host).toBe('127.0.0.1');
      const client = new ChromaClient({ host: server.host, port: server.port });
      const collection = await client.getOrCreateCollection({ name: 'lifecycle', embeddingFunction: null });
      await collection.upsert({ ids: ['kept'], embeddings: [[1, 0]], documents: ['written before the crash'] });
      await server.kill();
      expect(alive(first)).toBe(false);
      await expect(client.heartbeat()).rejects.toThrow();
      await server.restart();
      expect(server.pid).not.toBe(first);
      const again = await new ChromaClient({ host: server.host, port: server.port }).getCollection({ name: 'lifecycle', embeddingFunction: null } as never);
      expect((await again.get({ ids: ['kept'], include: ['documents'] })).documents).toEqual(['written before the crash']);
    } finally {
      const last = server.pid;
      await server.stop();
      if (last !== undefined) expect(alive(last)).toBe(false);
    }
  });
});
