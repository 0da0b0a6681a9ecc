/**
 * Where the semantic channel's table (concepts.ts) is, and how the compute client reads it: a
 * static binary asset beside this module (a hashed file of its own in the build, never inlined:
 * the worker would grow by half a megabyte), fetched once as bytes, which compute decodes without
 * a text parse; read from disk where the client runs under Node (tests, scripts), whose fetch
 * takes no file URL.
 */

/** The table's URL. */
export const CONCEPTS_URL = new URL('./wordnet-concepts.bin?no-inline', import.meta.url);

/** Tables read from disk in this realm, by URL: one buffer, which every in-process compute shares (compute only reads it; nothing transfers it). */
const fromDisk = new Map<string, ArrayBuffer>();

/** The table's bytes. @throws Error naming the URL when it cannot be read, or when the shared buffer read from disk was detached. */
export async function readConcepts(url: URL = CONCEPTS_URL): Promise<ArrayBuffer> {
  if (url.protocol === 'file:') {
    const fs = (globalThis as { process?: { getBuiltinModule?(name: string): unknown } }).process?.getBuiltinModule?.('node:fs') as { readFileSync(path: URL): Uint8Array } | undefined;
    if (!fs) throw new Error(`cannot read engram's WordNet table ${url.href}: no node:fs here, and fetch takes no file: URL`);
    let table = fromDisk.get(url.href);
    if (table?.byteLength === 0) {
      // Transferred by someone (postMessage with it in the transfer list): every compute that shares it would read nothing.
      fromDisk.delete(url.href);
      throw new Error(`engram's WordNet table ${url.href}, read once for every in-process compute, was detached (transferred away); it must be posted as a copy`);
    }
    if (!table) {
      const bytes = fs.readFileSync(url);
      fromDisk.set(url.href, (table = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer));
    }
    return table;
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching engram's WordNet table ${url.href} answered ${response.status}`);
  return response.arrayBuffer();
}
