/**
 * Assembles streamed tool-call deltas into whole tool calls. OpenAI sends, per call, one
 * delta with `index`, `id` and `name`, then argument fragments with the same `index` —
 * possibly interleaved with other calls. Compatible servers bend this: some omit `index`,
 * some send each call whole in one delta, some reuse index 0 for every call with distinct
 * ids. The assembler accepts all of those and never parses the arguments (the loop does).
 */
import type { ModelToolCall } from './modelClient';

/** One tool-call fragment as it appears in a `chat.completion.chunk` delta. */
export interface ToolCallDelta {
  readonly index?: number | null;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface Slot {
  id: string | undefined;
  name: string;
  argumentsText: string;
}

/** Collects deltas; `finish()` returns the calls in the order they were started. */
export class ToolCallAssembler {
  readonly #slots: Slot[] = [];
  /** Slot position per wire index; a new id on a used index opens a new slot. */
  readonly #byIndex = new Map<number, Slot>();
  readonly #makeId: () => string;

  constructor(makeId: () => string) {
    this.#makeId = makeId;
  }

  /** Adds the `tool_calls` array of one delta. */
  add(deltas: readonly ToolCallDelta[]): void {
    deltas.forEach((delta, position) => {
      const index = typeof delta.index === 'number' ? delta.index : position;
      const id = delta.id ?? undefined;
      let slot = this.#byIndex.get(index);
      // A new id on a used index starts a new call — also after an id-less call that is already named.
      const startsNew = slot === undefined || (!!id && (slot.id === undefined ? slot.name !== '' : slot.id !== id));
      if (startsNew || slot === undefined) {
        slot = { id: id || undefined, name: '', argumentsText: '' };
        this.#slots.push(slot);
        this.#byIndex.set(index, slot);
      } else if (slot.id === undefined && id) {
        slot.id = id;
      }
      const name = delta.function?.name;
      // Names normally arrive once; servers that repeat the full name on every delta must not double it.
      if (name && slot.name !== name) slot.name += name;
      const args = delta.function?.arguments;
      if (args) slot.argumentsText += args;
    });
  }

  /** Whether any call was started. */
  get size(): number {
    return this.#slots.length;
  }

  /** The assembled calls; missing ids are generated, missing arguments become `{}`. */
  finish(): ModelToolCall[] {
    return this.#slots.map((slot) => ({
      id: slot.id ?? this.#makeId(),
      name: slot.name,
      argumentsText: slot.argumentsText === '' ? '{}' : slot.argumentsText,
    }));
  }
}
