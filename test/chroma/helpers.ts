/**
 * Helpers for tests against the real Chroma server of the `chroma` project (global-setup.ts):
 * a fresh collection prefix per call, so tests never see each other's rows, and records built
 * the way the pipeline builds them.
 */
import { inject } from 'vitest';
import { ChromaClient } from 'chromadb';
import type { Storage, StorageContext } from '../../src/storage/contract';
import { openChromaStorage, type ChromaInternals } from '../../src/adapters/chroma/storage';
import type { MemoryRecord } from '../../src/index';

let counter = 0;

/** A collection prefix no other test uses (letters, digits and `_` only). */
export function freshPrefix(label = 't'): string {
  return `${label}_${process.pid}_${Date.now().toString(36)}_${++counter}_`;
}

export function server(): { host: string; port: number } {
  return inject('chroma');
}

export function chromaClient(address = server()): ChromaClient {
  return new ChromaClient({ host: address.host, port: address.port });
}

/**
 * The names of every collection on the server that start with `prefix`. `listCollections` answers
 * one page (100 by default), and the run's shared server holds more than that once a few files
 * have run, so a scan that read only the first page could pass without looking at a collection.
 */
export async function collectionNames(prefix: string, client = chromaClient()): Promise<string[]> {
  const names: string[] = [];
  const limit = 100;
  for (let offset = 0; ; offset += limit) {
    const page = await client.listCollections({ limit, offset });
    for (const { name } of page) if (name.startsWith(prefix)) names.push(name);
    if (page.length < limit) return names;
  }
}

export function storageContext(dim = 8, name = 'engram'): StorageContext {
  return { name, embedder: { id: `test-${dim}`, dim } };
}

/** Opens a Chroma storage on the run's server (or `address`) under `prefix`. */
export function openTestStorage(prefix: string, options: { dim?: number; address?: { host: string; port: number }; internals?: ChromaInternals } = {}): Promise<Storage> {
  const address = options.address ?? server();
  return openChromaStorage({ host: address.host, port: address.port, collectionPrefix: prefix }, storageContext(options.dim ?? 8), options.internals ?? {});
}

/** A unit vector from a seed (deterministic). */
export function unitVector(seed: number, dim = 8): Float32Array {
  let state = seed * 2654435761 + 1;
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out[i] = state / 2 ** 30 - 1;
  }
  const norm = Math.hypot(...out);
  return out.map((value) => value / norm);
}

export function testRecord(overrides: Partial<MemoryRecord> & Pick<MemoryRecord, 'id'>, dim = 8): MemoryRecord {
  return {
    userId: 'u1',
    appName: 'default',
    scope: 'user',
    topic: 'diet',
    content: `content of ${overrides.id}`,
    importance: 0.5,
    halfLifeDays: 180,
    confidence: 0.65,
    sources: [{ type: 'user_implicit', id: 's1', excerpt: `excerpt of ${overrides.id}`, at: 1 }],
    createdAt: 1,
    updatedAt: 1,
    history: [{ at: 1, event: 'created', reason: 'novel topic for this user' }],
    embedding: unitVector(overrides.id.length * 31 + overrides.id.charCodeAt(overrides.id.length - 1), dim),
    embedderId: `test-${dim}`,
    ...overrides,
  };
}
