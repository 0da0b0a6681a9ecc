/**
 * engram: on-device long-term memory for chat apps. This file names every public export; a
 * name exported here is a promise (docs/api.md, "Stable API"), so helpers stay in their modules.
 */
export { createMemory, type Memory, type MemoryOptions } from './memory';
export { OwnerExport, type ImportReport } from './transfer/format';
export type { PersistResult, StorageEstimateResult } from './durability/persist';
export type { ChangeEvent, ChangeListener } from './durability/subscribe';
export type { WorkerMode } from './worker/client';
export {
  partitionsFor,
  type StorageBackend,
  type StorageContext,
  type Storage,
  type RecordStore,
  type VectorLayer,
  type VectorSearch,
  type VectorHit,
  type Commit,
  type CommitResult,
  type RecordLocation,
  type Owner,
  type InputRow,
  type WriteInput,
  type PruneInput,
} from './storage/contract';
export type { AssembleOptions, IngestOptions, RememberOptions, RetrieveOptions, OwnerOptions, ListOptions, PruneOptions, SummarizeOptions, ReembedOptions } from './options';
export type { ReembedProgress, ReembedReport } from './reembed/reembed';
export type { Retrieved } from './retrieve/retrieve';
export { REDACTED, type ForgetReport } from './forget/forget';
export type { PruneReport } from './forget/prune';
export type { UndoReport } from './undo/undo';
export type { WhyReport, WhySource, WhyStep } from './control/why';
export type { PendingMemory } from './review/held';
export type { RejectReport } from './review/review';
export type { Explanation, Miss, MissReason } from './retrieve/explain';
export { RELEVANCE_FLOOR } from './retrieve/select';
export { SESSION_SUMMARY_TOPIC } from './session/summarize';
export { EPISODE_TOPIC } from './extract/topics';
export { EPISODES_HEADING, MORE_FACTS_HEADING, PROFILE_HEADING } from './inject/inject';
export { PROFILE_LIMIT, PROFILE_TOPICS } from './retrieve/profile';
export type { Embedder } from './embed/embedder';
export { createHashEmbedder } from './embed/hash-embedder';
export { normalize } from './embed/vector';
export { oneLine } from './text';
export type { Extractor, ExtractContext } from './extract/extractor';
export { createRuleExtractor, SEED_RULES, type Rule } from './extract/rules';
export { EXCLUSIVE_TOPICS, TOPICS, TOPIC_DESCRIPTIONS, isTopic, type Topic } from './extract/topics';
export { createLlmExtractor, EXTRACTION_PROMPT, LlmExtraction, type LlmExtractorOptions, type CompletionRequest } from './extract/llm';
export { createPolicyDecider, type Decider, type DecideInput, type Decision, type PolicyOptions } from './consolidate/decider';
export { MEMORIES_OPEN, MEMORIES_CLOSE } from './inject/inject';
export type { Assembled, AssembleOrder } from './inject/assemble';
export { estimateTokens } from './inject/tokens';
export {
  ChatMessage,
  Source,
  SourceInput,
  SourceType,
  Scope,
  HistoryEntry,
  HistoryEvent,
  MemoryRecord,
  Metadata,
  Candidate,
  Operation,
  Fact,
  Weights,
  DEFAULT_TRUST,
  DEFAULT_EXCLUSIVE_TOPICS,
  DEFAULT_WEIGHTS,
  decayedConfidence,
  decayHalfLife,
  confidenceBand,
  type ConfidenceBand,
  type ListedMemory,
  type MemoryKind,
  type CandidateInput,
} from './schema';
export {
  EngramError,
  ValidationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  StorageError,
  ClosedError,
  QuotaError,
  StorageEvictedError,
  WorkerError,
  PluginError,
  ModelUnavailableError,
  AbortedError,
  EmbedderMismatchError,
  EncryptionKeyError,
  IdCollisionError,
  isEngramError,
} from './errors';
// For storage backends (`createMemory({ storage })`, engram/chroma): the partition keys and the
// isolation predicate every backend must agree with engram on.
export { userPartition, appPartition, partitionOf, isVisibleTo } from './storage/owner';
// The identical-fact key a backend indexes to serve `workingSet({ facts })` without reading the topic.
export { factHash } from './text';
// The order `list` returns on every backend (oldest first, then by id).
export { byCreation } from './schema';
