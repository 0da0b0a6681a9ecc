/**
 * The verbs an application calls now and then rather than every turn: erasure, the user's
 * control (forget one memory, correct, pin, why, review, explain), undo, pruning,
 * re-embedding, export and import, and the `asOf` reads (which replay the
 * stored inputs). They load as one chunk on the first such call (./load.ts), so the code an
 * application loads to start and run a conversation stays small.
 */

export { finishErasure, forgetSource } from './forget';
export { forget } from './forget-memory';
export { correct, pin, why } from './control';
export { approve, pending, reject } from './review';
export { explain } from './explain';
export { prune } from './prune';
export { reembed } from './reembed';
export { undo } from './undo';
export { exportOwner } from '../transfer/export';
export { importOwner } from '../transfer/import';
export { listAsOf, retrieveAsOf } from './as-of';
export { addProfile } from './profile';
