/**
 * Parses an export the way `parseInput(OwnerExport, data, 'data')` does, without holding the
 * page's main thread: zod takes about 10 µs a memory, so an export of 10,000 is one task of
 * 100–200 ms parsed whole. The envelope (format, owner, array bounds) is parsed first, so a
 * hostile size is refused before anything else is looked at, then the memories and inputs
 * one by one, yielding to the page between slices (slices.ts). Each element is parsed with the
 * same schema and reported at the same path (`data.memories.3.content`); the first bad
 * element is the one named.
 */
import { z } from 'zod/mini';
import { parseInput } from '../options';
import { sliced } from '../slices';
import { EXPORT_FORMAT, EXPORT_LIMITS, ExportedInput, ExportedMemory, OwnerExport } from './format';

/** The export's shape with its two arrays bounded but their elements unread. */
const Envelope = z.strictObject({
  ...OwnerExport.shape,
  memories: z.array(z.unknown()).check(z.maxLength(EXPORT_LIMITS.memories, { error: `must hold at most ${EXPORT_LIMITS.memories} memories` })),
  inputs: z.array(z.unknown()).check(z.maxLength(EXPORT_LIMITS.inputs, { error: `must hold at most ${EXPORT_LIMITS.inputs} inputs` })),
});

async function parseEach<S extends z.ZodMiniType>(schema: S, items: readonly unknown[], path: string): Promise<z.output<S>[]> {
  const out: z.output<S>[] = new Array(items.length);
  await sliced(items.length, (i) => void (out[i] = parseInput(schema, items[i], `${path}.${i}`)));
  return out;
}

/**
 * `data` parsed as an {@link OwnerExport}, in slices.
 * @throws ValidationError as `parseInput(OwnerExport, data, 'data')` would (the path and the reason of the first fault).
 */
export async function parseExport(data: unknown): Promise<OwnerExport> {
  const envelope = parseInput(Envelope, data, 'data');
  const memories = await parseEach(ExportedMemory, envelope.memories, 'data.memories');
  const inputs = await parseEach(ExportedInput, envelope.inputs, 'data.inputs');
  return { ...envelope, format: EXPORT_FORMAT, memories, inputs };
}
