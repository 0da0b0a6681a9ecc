import { describe } from 'vitest';
import { seedScenario } from '../contract/seed-scenario';
import { openTestMemory } from '../helpers/memory';

describe('Memory (seed scenario)', () => {
  seedScenario(openTestMemory);
});
