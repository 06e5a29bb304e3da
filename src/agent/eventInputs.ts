import type { HookEnvelopeSource } from './hookInputs';
import { HookInputs } from './hookInputs';

export type { BatchToolCall } from './hookInputs';

/**
 * The builders of an agent's inputs for Claude Code's 2026 events, on the envelope of an
 * existing {@link HookInputs} (or a bare envelope). Every builder now lives on HookInputs,
 * so this is the same class under the name its callers use.
 */
export class EventInputs extends HookInputs {
  constructor(source: HookInputs | HookEnvelopeSource) {
    super(source);
  }
}
