import type { ModelHookMarker } from '../agent/agentEvents';

/**
 * The words of a model-level hook's mark on a reply, the same in the chat, its restored
 * history and the CLI: `Answered by hook "…" (the model was not called)`, `Reply redacted by
 * hook "…"`, `Request changed by hook "…": messages 42 → 12`.
 */
export function modelHookMarkerText(marker: ModelHookMarker): string {
  const hook = `hook "${marker.hookLabel}"`;
  switch (marker.kind) {
    case 'answered':
      return `Answered by ${hook} (the model was not called)`;
    case 'redacted':
      return `Reply redacted by ${hook}`;
    case 'requestChanged':
      return `Request changed by ${hook}${marker.detail ? `: ${marker.detail}` : ''}`;
  }
}
