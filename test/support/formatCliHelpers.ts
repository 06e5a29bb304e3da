import type { OpenAiTestServer } from './openAiTestServer';
import { toolCallsReply } from './openAiTestServer';

/** The text of every `tool` message the server received in request `n`, one per line. */
export function toolMessage(s: OpenAiTestServer, n: number): string {
  return (s.requests[n]?.body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content))
    .join('\n');
}

/** A model reply that calls Bash once with `command`. */
export const bash = (command: string) => toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: { command } }]);
