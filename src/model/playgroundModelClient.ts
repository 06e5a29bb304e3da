/**
 * The Playground adapter of the ModelClient port: replays a scripted session
 * (playgroundScript.ts) with no network, so hook policies can be tried safely through the
 * real loop, tools and hooks. Each model call — the agent's, a subagent's, a prompt hook's —
 * consumes the next turn, in call order. Text is streamed in small timed chunks so the UI
 * behaves as with a real model. Always labelled "Playground (scripted)": nobody should
 * mistake a replay for a model's judgement.
 */
import type { ModelClient, ModelRequest, ModelStreamEvent } from './modelClient';
import type { PlaygroundScript } from './playgroundScript';
import { sleepWithAbort } from './retryPolicy';

/** The label, wherever the model name shows. */
export const playgroundLabel = 'Playground (scripted)';

/** What the "model" answers once the script has no turns left. */
export const playgroundFinishedText = '(playground script finished)';

/** Options of `PlaygroundModelClient`. */
export interface PlaygroundModelClientOptions {
  /** Pause before each text chunk, in ms (default 15; 0 for tests and benchmarks). */
  readonly chunkDelayMs?: number;
  /** Characters per text chunk (default 8). */
  readonly chunkSize?: number;
  /**
   * Why the script cannot play now (e.g. it `requiresProjectHooks` and they are off), or
   * undefined. Its text is answered instead of the next turn, which stays for a later call,
   * so a tour never claims a hook decided what it did not.
   */
  readonly gate?: (script: PlaygroundScript) => string | undefined;
}

/** Replays `script`, one turn per `stream` call. */
export class PlaygroundModelClient implements ModelClient {
  readonly label = playgroundLabel;
  readonly script: PlaygroundScript;
  readonly #chunkDelayMs: number;
  readonly #chunkSize: number;
  readonly #gate: ((script: PlaygroundScript) => string | undefined) | undefined;
  #next = 0;

  constructor(script: PlaygroundScript, options: PlaygroundModelClientOptions = {}) {
    this.script = script;
    this.#chunkDelayMs = options.chunkDelayMs ?? 15;
    this.#chunkSize = Math.max(1, options.chunkSize ?? 8);
    this.#gate = options.gate;
  }

  /** How many turns were replayed so far. */
  get turnsUsed(): number {
    return this.#next;
  }

  /** Streams the next turn (or the "finished" text); aborts reject with the signal's reason. */
  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent, void, undefined> {
    signal.throwIfAborted();
    const index = this.#next;
    const held = this.#gate?.(this.script);
    const turn = held === undefined ? this.script.turns[index] : undefined;
    // Claim the turn before the first await, so interleaved calls never replay the same one.
    if (turn !== undefined) this.#next++;
    const text = held ?? (turn === undefined ? playgroundFinishedText : (turn.text ?? ''));
    for (const piece of chunks(text, this.#chunkSize)) {
      if (this.#chunkDelayMs > 0) await sleepWithAbort(this.#chunkDelayMs, signal);
      else signal.throwIfAborted();
      yield { type: 'text', delta: piece };
    }
    const calls = turn?.toolCalls ?? [];
    for (const [i, call] of calls.entries()) {
      signal.throwIfAborted();
      // Deterministic ids keep transcripts of a replay comparable between runs.
      yield { type: 'toolCall', call: { id: call.id ?? `call_playground_${index + 1}_${i + 1}`, name: call.name, argumentsText: call.argumentsText } };
    }
    // A rough estimate (≈4 characters per token), so token-limit hooks can be tried here too.
    const input = Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / 4);
    const output = Math.ceil((text.length + calls.reduce((n, c) => n + c.name.length + c.argumentsText.length, 0)) / 4);
    yield { type: 'usage', usage: { inputTokens: input, outputTokens: output } };
    yield { type: 'done', finishReason: calls.length > 0 ? 'tool_calls' : 'stop' };
  }
}

function chunks(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
