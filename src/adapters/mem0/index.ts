/**
 * engram/mem0: mem0 OSS v3's `Memory` API over engram. Switch a mem0 script by its import:
 * `import { Memory } from 'engram/mem0'` instead of `'mem0ai/oss'`.
 */
export { Memory, type MemoryConfig } from './memory';
export type {
  AddMemoryOptions,
  DeleteAllMemoryOptions,
  Entity,
  GetAllMemoryOptions,
  HistoryRow,
  MemoryItem,
  Message,
  SearchFilters,
  SearchMemoryOptions,
  SearchResult,
  UpdateMemoryOptions,
} from './shapes';
