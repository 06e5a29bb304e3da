import type { StepType } from '../inputs/loopEventSchemas';
import type { HookMatcher, MatchTarget } from './hookMatcher';

/**
 * The StepType matcher (TypeScript API, docs/hooks.md §5): matches AfterStep occurrences whose `step_type` is one of
 * `types` (`tool_execution` or `final_response`). Inputs without a step type never match.
 */
export class StepTypeMatcher implements HookMatcher {
  readonly description: string;
  private readonly types: ReadonlySet<string>;

  constructor(...types: StepType[]) {
    this.types = new Set(types);
    this.description = `step ${types.join('|')}`;
  }

  matches(target: MatchTarget): boolean {
    const type = target.input['step_type'];
    return typeof type === 'string' && this.types.has(type);
  }
}
