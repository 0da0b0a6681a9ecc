/**
 * Where the semantic channel's table (concepts.ts) is, and how the compute client reads it: a
 * static binary asset beside this module (a hashed file of its own in the build, never inlined:
 * the worker would grow by half a megabyte), fetched once as bytes, which compute decodes without
 * a text parse; read from disk where the client runs under Node (tests, scripts), whose fetch
 * takes no file URL.
 */

/** The table's URL. */
export const CONCEPTS_URL = new URL('./wordnet-concepts.bin?no-inline', import.meta.url);

/** The table's bytes, in a buffer of their own (the worker client transfers it). @throws Error naming the URL when it cannot be read. */
export async function readConcepts(url: URL = CONCEPTS_URL): Promise<ArrayBuffer> {
  if (url.protocol === 'file:') {
    const fs = (globalThis as { process?: { getBuiltinModule?(name: string): unknown } }).process?.getBuiltinModule?.('node:fs') as { readFileSync(path: URL): Uint8Array } | undefined;
    if (!fs) throw new Error(`cannot read engram's WordNet table ${url.href}: no node:fs here, and fetch takes no file: URL`);
    const bytes = fs.readFileSync(url);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching engram's WordNet table ${url.href} answered ${response.status}`);
  return response.arrayBuffer();
}
