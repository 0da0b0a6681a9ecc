import { createIndexedDbStore } from '../helpers/idb-store';
import { describeStorageContract } from './suite';

// The full-size runs of the same bodies on IndexedDB are in the files named in suite.ts.
describeStorageContract('indexeddb', createIndexedDbStore, { isolationRuns: 200 });
