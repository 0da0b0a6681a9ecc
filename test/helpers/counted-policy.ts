/** The policy decider with its calls counted: still the policy (an erasure may keep to partitions, or skip the replay). */
import { createPolicyDecider, DEFAULT_EXCLUSIVE_TOPICS, DEFAULT_TRUST, type Decider, type DecideInput } from '../../src/index';

export function countedPolicy(): { decider: Decider; calls: () => number } {
  const decider = createPolicyDecider({ trust: DEFAULT_TRUST, exclusiveTopics: new Set(DEFAULT_EXCLUSIVE_TOPICS) });
  const decide = decider.decide.bind(decider);
  let calls = 0;
  decider.decide = (input: DecideInput) => {
    calls++;
    return decide(input);
  };
  return { decider, calls: () => calls };
}
