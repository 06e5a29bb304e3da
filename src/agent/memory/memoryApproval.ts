import path from 'node:path';
import { realpathLenientSync } from '../../permissions/rulePaths';
import type { PermissionProvider } from '../../hooks/hookRunTypes';
import { describeExternalMemory } from './memoryAccess';
import type { ExternalMemoryApprover, ExternalMemoryRequest } from './memoryAccess';

/**
 * Who approves a memory file outside the project: a file pinned earlier (the extension keeps
 * the pins per workspace), else a person through the PermissionProvider port (the modal in VS
 * Code, the terminal in an interactive CLI), once per file; a yes is pinned. Headless, with
 * no one to ask and nothing pinned, nothing outside is read.
 */

/** Approved external memory files, kept by the host (VS Code's workspaceState); keys from {@link memoryPinKey}. */
export interface MemoryApprovalPins {
  has(key: string): boolean;
  add(key: string): void | Promise<void>;
}

/** The pin of one approval: the file's real path under the boundary it was approved for. */
export function memoryPinKey(request: Pick<ExternalMemoryRequest, 'boundary' | 'file'>): string {
  return `${request.boundary}\u0000${request.file}`;
}

/**
 * Pins for files a person named up front (the CLI's `--allow-memory-import FILE`): exactly those
 * files, by real path, whatever memory imports them. Relative names resolve against `cwd`.
 */
export function namedFilePins(files: readonly string[], cwd: string): MemoryApprovalPins {
  const named = new Set(files.map((f) => realpathLenientSync(path.resolve(cwd, f))));
  return {
    has: (key) => named.has(key.slice(key.indexOf('\u0000') + 1)),
    add: () => undefined,
  };
}

/** The session's approver; undefined when no one can approve anything (then nothing outside is read). */
export function memoryApprover(
  provider: PermissionProvider | undefined,
  pins: MemoryApprovalPins | undefined,
  sessionId: () => string,
): ExternalMemoryApprover | undefined {
  if (!provider && !pins) return undefined;
  return async (request, signal) => {
    const key = memoryPinKey(request);
    if (pins?.has(key)) return true;
    if (!provider) return false;
    const answer = await provider.requestPermission(
      {
        agentId: 'main',
        parentAgentId: null,
        agentType: 'main',
        sessionId: sessionId(),
        event: 'InstructionsLoaded',
        toolName: 'Read',
        toolInput: { file_path: request.file },
        reason: describeExternalMemory(request),
        // Allow / Deny only: "Always Allow" would write a Read rule, wider than this one file.
        kind: 'hook',
        askedBy: [],
      },
      signal,
    );
    if (answer.decision !== 'allow') return false;
    await pins?.add(key);
    return true;
  };
}
