import type { HookRunRecord } from '../../hooks/hookRunTypes';
import { decisionText, runReason } from './hookRunLabels';

/**
 * The Hook Runs search: whitespace-separated terms, all of which must match (case-insensitive).
 * `event:`, `decision:`, `hook:`, `agent:`, `session:` test one field (substring); any other term
 * is looked for in the event, match value, hook, decision, reason, agent and the input.
 * E.g. `event:PreToolUse decision:deny rm`. Pure, so it is unit-tested.
 */

export interface HookRunQuery {
  readonly fields: readonly { readonly key: QueryKey; readonly value: string }[];
  readonly words: readonly string[];
}

type QueryKey = 'event' | 'decision' | 'hook' | 'agent' | 'session';
const KEYS = new Set<string>(['event', 'decision', 'hook', 'agent', 'session']);

/** Longest input text searched per run: bounds the cost of a huge tool input. */
const MAX_INPUT_TEXT = 8 * 1024;

/** Parses the search text; undefined when it has no terms (nothing to filter). */
export function parseHookRunQuery(text: string): HookRunQuery | undefined {
  const fields: { key: QueryKey; value: string }[] = [];
  const words: string[] = [];
  for (const term of text.trim().toLowerCase().split(/\s+/)) {
    if (!term) continue;
    const colon = term.indexOf(':');
    const key = colon > 0 ? term.slice(0, colon) : '';
    if (KEYS.has(key) && colon < term.length - 1) fields.push({ key: key as QueryKey, value: term.slice(colon + 1) });
    else words.push(term);
  }
  return fields.length + words.length > 0 ? { fields, words } : undefined;
}

/** Lower-cased text of each field, and the whole, per record (records are replaced, never mutated). */
const cache = new WeakMap<HookRunRecord, { fields: Record<QueryKey, string>; all: string }>();

function texts(record: HookRunRecord): { fields: Record<QueryKey, string>; all: string } {
  let found = cache.get(record);
  if (!found) {
    const fields: Record<QueryKey, string> = {
      event: record.event.toLowerCase(),
      decision: decisionText(record).toLowerCase(),
      hook: `${record.hookLabel} ${record.hookId}`.toLowerCase(),
      agent: `${record.agentType} ${record.agentId}`.toLowerCase(),
      session: record.sessionId.toLowerCase(),
    };
    let input = '';
    try {
      input = JSON.stringify(record.input).slice(0, MAX_INPUT_TEXT);
    } catch {
      // unserialisable input: search the rest
    }
    const all = [fields.event, record.matchValue ?? '', fields.hook, fields.decision, runReason(record) ?? '', fields.agent, input].join('\n').toLowerCase();
    found = { fields, all };
    cache.set(record, found);
  }
  return found;
}

/** Whether the run matches every term of the query. */
export function runMatchesQuery(record: HookRunRecord, query: HookRunQuery): boolean {
  const t = texts(record);
  return query.fields.every((f) => t.fields[f.key].includes(f.value)) && query.words.every((w) => t.all.includes(w));
}
