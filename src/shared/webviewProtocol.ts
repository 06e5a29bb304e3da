import { z } from 'zod';

/**
 * The chat webview's message protocol, both ways, as zod discriminated unions. The
 * extension parses everything the webview sends (`parseFromWebview`) and drops what does
 * not parse; the webview trusts the extension and imports only the types. Everything is
 * plain JSON: agent events are projected to `ChatEvent` before they cross.
 */

/** Status of a tool call card (mirrors the agent's `ToolCallStatus`). */
export const chatToolStatusSchema = z.enum(['validating', 'waiting-approval', 'running', 'done', 'denied', 'failed', 'cancelled']);

/** The agent an event belongs to, as the webview needs it. */
export const chatAgentSchema = z.object({
  agentId: z.string(),
  parentAgentId: z.string().nullable(),
  agentType: z.string(),
});

/** One line of an inline diff (see src/agent/checkpoints/lineDiff.ts). */
export const diffLineSchema = z.object({
  kind: z.enum(['context', 'removed', 'added', 'gap']),
  text: z.string(),
  oldLine: z.number().optional(),
  newLine: z.number().optional(),
});

/** A file a turn changed, as the turn's edit summary lists it. */
export const editedFileSchema = z.object({
  /** Absolute path: the key sent back with Keep / Undo / Open Diff. */
  path: z.string(),
  /** Workspace-relative path shown to the user. */
  label: z.string(),
  change: z.enum(['created', 'modified', 'deleted']),
  state: z.enum(['pending', 'kept', 'undone', 'conflict']),
  added: z.number().optional(),
  removed: z.number().optional(),
  /** Why it cannot be undone, or what a conflict means. */
  note: z.string().optional(),
});

/** A chip of context attached to a prompt (file, folder, selection, Problems, terminal output). */
export const chatAttachmentSchema = z.object({
  id: z.string().max(100),
  kind: z.enum(['file', 'folder', 'selection', 'problems', 'terminal']),
  /** Short text on the chip, e.g. `chat.ts:3-7`. */
  label: z.string(),
  /** Full path and range, for the tooltip and screen readers. */
  detail: z.string(),
});

/** One `#` completion in the input: `insert` replaces the token being typed. */
export const mentionItemSchema = z.object({ label: z.string(), detail: z.string(), insert: z.string() });

/**
 * A serializable projection of one `AgentEvent`. Texts the user reads (the verdict line,
 * "Blocked by PreToolUse hook `…`: reason") are computed on the extension side so the
 * webview never needs hook internals.
 */
export const chatEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('userPrompt'), text: z.string(), attachments: z.array(chatAttachmentSchema).optional() }),
  /** Reasoning text the model streamed (shown collapsed). */
  z.object({ type: z.literal('reasoning'), agentId: z.string(), delta: z.string() }),
  z.object({ type: z.literal('runStarted'), agent: chatAgentSchema, description: z.string().optional(), parentToolUseId: z.string().optional() }),
  z.object({ type: z.literal('text'), agentId: z.string(), delta: z.string() }),
  z.object({ type: z.literal('assistantMessage'), agentId: z.string(), text: z.string() }),
  z.object({ type: z.literal('toolCall'), agentId: z.string(), toolUseId: z.string(), toolName: z.string(), summary: z.string(), input: z.string() }),
  z.object({
    type: z.literal('toolStatus'),
    agentId: z.string(),
    toolUseId: z.string(),
    status: chatToolStatusSchema,
    /** Pretty JSON of the input actually used (after hook rewrites). */
    input: z.string().optional(),
    result: z.string().optional(),
    isError: z.boolean().optional(),
    /** e.g. "Blocked by PreToolUse hook `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`: reason". */
    verdict: z.string().optional(),
    /** True when the verdict is a refusal (styled as an error). */
    verdictBlocks: z.boolean().optional(),
  }),
  z.object({ type: z.literal('systemMessage'), agentId: z.string(), text: z.string(), source: z.string().optional() }),
  /** A model-level hook's mark on the reply that follows: answered without the model, redacted, request changed. `text` is the whole mark in words. */
  z.object({
    type: z.literal('modelHookMarker'),
    agentId: z.string(),
    kind: z.enum(['answered', 'redacted', 'requestChanged']),
    hook: z.string(),
    text: z.string(),
  }),
  /** A hook's `statusMessage` while it runs for this tool call; no text = none running any more. Live only: never replayed. */
  z.object({ type: z.literal('hookStatus'), agentId: z.string(), toolUseId: z.string(), text: z.string().optional() }),
  z.object({ type: z.literal('usage'), agentId: z.string(), inputTokens: z.number(), outputTokens: z.number() }),
  /** The change one Write/Edit call made, shown inline in its card. */
  z.object({
    type: z.literal('fileDiff'),
    agentId: z.string(),
    toolUseId: z.string(),
    path: z.string(),
    label: z.string(),
    lines: z.array(diffLineSchema),
    added: z.number(),
    removed: z.number(),
    truncated: z.boolean(),
    /** Instead of lines: why no inline diff is shown (binary, too large). */
    note: z.string().optional(),
  }),
  /**
   * The checkpoint taken just before a user prompt (its Restore Checkpoint button): the latest
   * prompt, or the `userMessage`-th one (0-based) when a resumed conversation is redrawn.
   */
  z.object({ type: z.literal('checkpoint'), checkpointId: z.number(), userMessage: z.number().int().nonnegative().optional() }),
  /** The files a turn changed, with Keep / Undo; sent again (same id) after each review action. */
  z.object({ type: z.literal('editSummary'), checkpointId: z.number(), files: z.array(editedFileSchema) }),
  z.object({
    type: z.literal('runEnded'),
    agentId: z.string(),
    status: z.enum(['completed', 'stopped', 'failed', 'cancelled']),
    reason: z.string().optional(),
    steps: z.number(),
  }),
]);

/** A button on a notice; `id` comes back in `noticeAction`. */
export const noticeActionSchema = z.object({ id: z.string(), label: z.string() });

/** A notice above the input, e.g. "No model configured" with "Use Playground". */
export const noticeSchema = z.object({ id: z.string(), text: z.string(), actions: z.array(noticeActionSchema) });

/** One past session in the History list. */
export const historyEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Epoch ms of the last activity. */
  updatedAt: z.number(),
  detail: z.string().optional(),
});

/** Extension → webview. */
export const toWebviewSchema = z.discriminatedUnion('type', [
  /** Sent after `ready`: everything the view shows, so a re-created view catches up. */
  z.object({
    type: z.literal('init'),
    modelLabel: z.string(),
    busy: z.boolean(),
    events: z.array(chatEventSchema),
    notice: noticeSchema.optional(),
    /** The next prompt's attachments, when there are any. */
    attachments: z.array(chatAttachmentSchema).optional(),
    /** The active editor's selection offered as a chip, when there is one. */
    editorSelection: chatAttachmentSchema.optional(),
    /** The context meter, once the model answered in this session. */
    contextUsage: z.object({ usedTokens: z.number(), windowTokens: z.number() }).optional(),
  }),
  z.object({ type: z.literal('agentEvent'), event: chatEventSchema }),
  z.object({ type: z.literal('sessionReset') }),
  z.object({ type: z.literal('history'), sessions: z.array(historyEntrySchema) }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  z.object({ type: z.literal('modelLabel'), label: z.string() }),
  z.object({ type: z.literal('notice'), notice: noticeSchema.optional() }),
  /** Puts text in the prompt box (the prompt a Restore Checkpoint removed, to edit and resend). */
  z.object({ type: z.literal('setDraft'), text: z.string() }),
  /** The attachments of the next prompt. */
  z.object({ type: z.literal('attachments'), items: z.array(chatAttachmentSchema) }),
  /** The active editor's selection, offered as a chip (undefined: nothing selected). */
  z.object({ type: z.literal('editorSelection'), attachment: chatAttachmentSchema.optional() }),
  /** Answer to `mentionQuery`. */
  z.object({ type: z.literal('mentionResults'), requestId: z.number(), items: z.array(mentionItemSchema) }),
  /** Answer to `commandQuery`: the slash commands whose name starts with the query (built-in, custom, plugin). */
  z.object({ type: z.literal('commandResults'), requestId: z.number(), items: z.array(mentionItemSchema) }),
  /** The memory files the session uses (CLAUDE.md…), shown under the model label, each a link. */
  z.object({ type: z.literal('memoryFiles'), files: z.array(z.object({ path: z.string(), label: z.string() })) }),
  /** Context window use for the header meter: tokens of the last model call / the window (0 = unknown). */
  z.object({ type: z.literal('contextUsage'), usedTokens: z.number(), windowTokens: z.number() }),
]);

/** Webview → extension. */
export const fromWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('submit'),
    prompt: z.string().min(1).max(1_000_000),
    /** False when the user dismissed the offered editor-selection chip. */
    includeEditorSelection: z.boolean().optional(),
  }),
  z.object({ type: z.literal('addContext') }),
  z.object({ type: z.literal('removeAttachment'), id: z.string().max(100) }),
  /** Files dropped on the chat (from the explorer or the OS), as URIs. */
  z.object({ type: z.literal('dropUris'), uris: z.array(z.string().max(4096)).max(50) }),
  z.object({ type: z.literal('mentionQuery'), requestId: z.number().int(), query: z.string().max(500) }),
  z.object({ type: z.literal('commandQuery'), requestId: z.number().int(), query: z.string().max(200) }),
  /** Opens one of the memory files last sent in `memoryFiles` (any other path is ignored). */
  z.object({ type: z.literal('openMemoryFile'), path: z.string().max(4096) }),
  z.object({ type: z.literal('insertCode'), text: z.string().max(10_000_000) }),
  z.object({ type: z.literal('pickModel') }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('showHistory') }),
  z.object({ type: z.literal('resumeSession'), id: z.string().min(1) }),
  z.object({ type: z.literal('openSetup') }),
  z.object({ type: z.literal('noticeAction'), noticeId: z.string(), actionId: z.string() }),
  z.object({ type: z.literal('copyText'), text: z.string().max(10_000_000) }),
  /** Open Diff: a tool call's change (`toolUseId`), or a turn's change to one file. */
  z.object({
    type: z.literal('openDiff'),
    toolUseId: z.string().max(1000).optional(),
    checkpointId: z.number().int().positive().optional(),
    path: z.string().max(4096).optional(),
  }),
  /** Keep or Undo of a turn's changes: one file (`path`) or all of them. */
  z.object({
    type: z.literal('reviewEdits'),
    action: z.enum(['keep', 'undo']),
    checkpointId: z.number().int().positive(),
    path: z.string().max(4096).optional(),
  }),
  /**
   * Restore Checkpoint; also Edit (`then: 'edit'`: the prompt back in the input) and Retry
   * (`then: 'retry'`: sent again) of a prompt that has a checkpoint, which cut the conversation
   * back to before it first. `prompt` is the message as shown (what the user typed).
   */
  z.object({
    type: z.literal('restoreCheckpoint'),
    checkpointId: z.number().int().positive(),
    then: z.enum(['edit', 'retry']).optional(),
    prompt: z.string().min(1).max(1_000_000).optional(),
  }),
]);

export type ChatAttachment = z.infer<typeof chatAttachmentSchema>;
export type MentionItem = z.infer<typeof mentionItemSchema>;
export type ChatToolStatus = z.infer<typeof chatToolStatusSchema>;
export type ChatAgent = z.infer<typeof chatAgentSchema>;
export type ChatEvent = z.infer<typeof chatEventSchema>;
export type Notice = z.infer<typeof noticeSchema>;
export type NoticeAction = z.infer<typeof noticeActionSchema>;
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type DiffLineMessage = z.infer<typeof diffLineSchema>;
export type EditedFile = z.infer<typeof editedFileSchema>;
export type ToWebviewMessage = z.infer<typeof toWebviewSchema>;
export type FromWebviewMessage = z.infer<typeof fromWebviewSchema>;

/** Result of parsing an inbound message: the message, or why it was rejected (for the log). */
export type ParsedFromWebview = { readonly ok: true; readonly message: FromWebviewMessage } | { readonly ok: false; readonly error: string };

/** Parses a message the webview posted. Never throws. */
export function parseFromWebview(data: unknown): ParsedFromWebview {
  const parsed = fromWebviewSchema.safeParse(data);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, error: `${issue?.message ?? 'invalid message'}${where}` };
}
