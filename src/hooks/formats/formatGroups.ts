import { describeValue, type DiagnosticSink } from '../../configFiles/diagnosticSink';
import type { JsonSegment } from '../../configFiles/jsonPath';
import { isPlainObject } from '../../shared/jsonObject';
import { MAX_FORMAT_ENTRIES, readEventLists } from './formatJson';

/** One handler of a Claude-shaped matcher group, with where it sits in the file. */
export interface GroupHandler {
  /** The event as the file names it. */
  readonly eventName: string;
  /** The group's matcher (undefined when absent or not a string: an error says so). */
  readonly matcher?: string;
  /** The group object itself, for keys besides `matcher` and `hooks` (Gemini `sequential`). */
  readonly group: Record<string, unknown>;
  readonly handler: Record<string, unknown>;
  /** `['hooks', event, groupIndex, 'hooks', handlerIndex]`. */
  readonly path: JsonSegment[];
}

/** The event lists of `value.hooks`, as found, for files that name events one by one (lets a caller warn per event first). */
export type GroupEvent = ReturnType<typeof readEventLists>[number];

/**
 * The handlers of a file shaped like Claude's settings (`{"hooks": {"<Event>": [{"matcher": …,
 * "hooks": [{…}, …]}]}}`), which Gemini and Codex share. `accept(event)` says whether an event is
 * read at all (the caller has already warned about the rest). A group or handler of the wrong
 * shape is an error naming its path and is skipped; the rest of the file still loads.
 */
export function readGroupHandlers(
  value: Record<string, unknown>,
  sink: DiagnosticSink,
  format: string,
  accept: (event: GroupEvent) => boolean,
): GroupHandler[] {
  const out: GroupHandler[] = [];
  for (const list of readEventLists(value, sink)) {
    if (!accept(list)) continue;
    for (const { value: group, path: at } of list.entries) {
      if (!isPlainObject(group)) {
        sink.report(
          'error',
          'wrongType',
          at,
          `a ${format} matcher group must be an object like {"matcher": "…", "hooks": [ … ]}, got ${describeValue(group)}; it is skipped`,
        );
        continue;
      }
      let matcher: string | undefined;
      if (group.matcher !== undefined && typeof group.matcher !== 'string')
        sink.report('error', 'wrongType', [...at, 'matcher'], `"matcher" must be a string, got ${describeValue(group.matcher)}; the group is skipped`);
      else matcher = group.matcher;
      if (group.matcher !== undefined && matcher === undefined) continue;
      const handlers = group.hooks;
      if (!Array.isArray(handlers)) {
        sink.report('error', 'wrongType', [...at, 'hooks'], `"hooks" must be an array of hooks, got ${describeValue(handlers)}; the group is skipped`);
        continue;
      }
      if (handlers.length > MAX_FORMAT_ENTRIES)
        sink.report('error', 'tooLarge', [...at, 'hooks'], `${handlers.length} hooks; only the first ${MAX_FORMAT_ENTRIES} are read`);
      handlers.slice(0, MAX_FORMAT_ENTRIES).forEach((handler: unknown, i) => {
        const path: JsonSegment[] = [...at, 'hooks', i];
        if (!isPlainObject(handler)) {
          sink.report(
            'error',
            'wrongType',
            path,
            `a ${format} hook must be an object like {"type": "command", "command": "…"}, got ${describeValue(handler)}; it is skipped`,
          );
          return;
        }
        out.push({ eventName: list.name, ...(matcher !== undefined ? { matcher } : {}), group, handler, path });
      });
    }
  }
  return out;
}
