import type { HookEnvelope } from '../../hooks/hookContext';
import { forEvent, withContextMetadata } from '../../hooks/hookContext';
import type { AgentRef } from '../../hooks/hookRunTypes';
import type { PermissionMode } from '../../permissions/permissionMode';
import type { AgentEventListener } from '../agentEvents';
import { emitSystemMessages } from '../agentEvents';
import type { HookDispatcher } from '../hookDispatcher';
import { fileToolTarget } from './lazyMemory';
import type { LazyMemory } from './lazyMemory';
import { describeMemoryFile } from './promptContext';

type Input = Readonly<Record<string, unknown>>;

/** What loading a file tool's memory needs from the session. */
export interface FileToolMemoryDeps {
  readonly lazyMemory: LazyMemory;
  readonly emit: AgentEventListener;
  /** The session's hook runner: InstructionsLoaded runs on it (an observation event: nothing to ask). */
  readonly hooks: HookDispatcher;
}

/**
 * After a file tool worked on a file (its PostToolUse `input`): the nested CLAUDE.md and
 * `paths:` rules it brings in (lazyMemory.ts) load, problems are shown to the user, and
 * InstructionsLoaded fires for each file, as the agent that ran the tool (its envelope is
 * the PostToolUse input's). Returns the text for the model (Claude Code attaches it before the
 * next call), undefined when nothing new loaded.
 */
export async function loadFileToolMemory(d: FileToolMemoryDeps, input: Input, signal: AbortSignal): Promise<string | undefined> {
  const toolInput = input['tool_input'];
  const target =
    typeof input['tool_name'] === 'string' && toolInput !== null && typeof toolInput === 'object'
      ? fileToolTarget(input['tool_name'], toolInput as Input)
      : undefined;
  if (target === undefined) return undefined;
  const envelope = envelopeOf(input);
  const agent: AgentRef = { agentId: envelope.agent_id, parentAgentId: envelope.parent_agent_id, agentType: envelope.agent_type };
  const { files, problems, notes } = await d.lazyMemory.touch(target, signal);
  for (const problem of problems) d.emit({ type: 'systemMessage', agent, text: `Memory: ${problem}`, source: 'memory' });
  if (files.length > 0 && d.hooks.hasHooks?.('InstructionsLoaded') !== false) {
    const metadata = recordOf(input['metadata']);
    for (const file of files) {
      const loaded = forEvent('InstructionsLoaded', envelope, {
        file_path: file.path,
        memory_type: file.memoryType,
        load_reason: file.loadReason,
        ...(file.globs ? { globs: [...file.globs] } : {}),
        ...(file.triggerFilePath ? { trigger_file_path: file.triggerFilePath } : {}),
        ...(file.parentPath ? { parent_file_path: file.parentPath } : {}),
      });
      // The agent's run metadata travels as on its other events.
      const result = metadata
        ? await d.hooks.run('InstructionsLoaded', withContextMetadata(loaded, metadata), { signal, metadata })
        : await d.hooks.run('InstructionsLoaded', loaded, { signal });
      emitSystemMessages(d.emit, agent, result);
    }
  }
  const withText = files.filter((f) => f.content.trim() !== '');
  // A file left out reaches the model as a note naming it, never its content.
  const parts = [...withText.map(describeMemoryFile), ...notes];
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/** The envelope of the agent whose event `input` is (forEvent's inverse: agent fields under `hookwise`). */
function envelopeOf(input: Input): HookEnvelope {
  const own = recordOf(input['hookwise']) ?? {};
  const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
  const promptId = input['prompt_id'];
  const mode = input['permission_mode'] ?? own['permission_mode'];
  return {
    session_id: str(input['session_id'], ''),
    transcript_path: str(input['transcript_path'], ''),
    cwd: str(input['cwd'], ''),
    ...(typeof mode === 'string' ? { permission_mode: mode as PermissionMode } : {}),
    agent_id: str(own['agent_id'], 'main'),
    parent_agent_id: typeof own['parent_agent_id'] === 'string' ? own['parent_agent_id'] : null,
    agent_type: str(own['agent_type'], 'main'),
    ...(typeof promptId === 'string' ? { prompt_id: () => promptId } : {}),
  };
}

function recordOf(value: unknown): Input | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : undefined;
}
