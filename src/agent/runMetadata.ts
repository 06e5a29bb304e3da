import { describeThrown } from '../shared/describeThrown';
import { isPlainObject } from '../shared/jsonObject';

/** Metadata of one agent run: plain JSON, frozen all the way down. */
export type RunMetadataValue = Readonly<Record<string, unknown>>;

/** The metadata of a run nothing has written to yet (shared, frozen). */
export const NO_RUN_METADATA: RunMetadataValue = Object.freeze({});

/**
 * Longest JSON text one agent's metadata may grow to. Every later hook input carries it (and
 * command hooks get it on stdin), so a hook that adds a key per step must not grow it forever.
 */
export const MAX_RUN_METADATA_CHARS = 64 * 1024;

function isEmpty(value: RunMetadataValue): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Lays `add` over `base` without mutating either: nested plain objects merge key by key, any
 * other value in `add` replaces the one in `base`. This is the rule *across* event
 * occurrences, which happen one after another, so the later one is the newer state (a step
 * counter can count). Within one occurrence the HookRunner's merge applies instead, where two
 * hooks writing one key is a conflict (their order says nothing about which is newer).
 */
export function overlayMetadata(base: RunMetadataValue, add: RunMetadataValue): RunMetadataValue {
  const merged: Record<string, unknown> = { ...base };
  for (const key of Object.keys(add)) {
    const next = add[key];
    const prev = merged[key];
    merged[key] = isPlainObject(prev) && isPlainObject(next) ? overlayMetadata(prev, next) : next;
  }
  return merged;
}

/**
 * The metadata of one agent run (its state, kept as plain data): what the run's hooks merged with
 * `metadataToMerge`, kept from one event to the next so a later hook can read it (`metadata`
 * in its input) and a MetadataMatcher can select on it. One per agent run; a subagent starts
 * from its parent's value at the spawn (frozen, so sharing it is a copy) and its own merges
 * never reach the parent.
 */
export class RunMetadata {
  private value: RunMetadataValue;

  constructor(initial: RunMetadataValue = NO_RUN_METADATA) {
    this.value = initial;
  }

  /** The current value (frozen JSON; replaced, never mutated, by {@link apply}). */
  get current(): RunMetadataValue {
    return this.value;
  }

  /**
   * Folds one occurrence's merged metadata in (see {@link overlayMetadata}). The result is kept
   * as its JSON form (what a command hook would see), deep-frozen. Returns why it was refused
   * (not JSON, or larger than {@link MAX_RUN_METADATA_CHARS}); the previous value stays then.
   */
  apply(add: RunMetadataValue): string | undefined {
    if (isEmpty(add)) return undefined;
    let text: string;
    try {
      text = JSON.stringify(overlayMetadata(this.value, add));
    } catch (thrown) {
      return `it is not JSON (${describeThrown(thrown)})`;
    }
    if (text.length > MAX_RUN_METADATA_CHARS) return `the run's metadata would grow past ${MAX_RUN_METADATA_CHARS} characters of JSON`;
    this.value = deepFreeze(JSON.parse(text) as Record<string, unknown>);
    return undefined;
  }
}
