import * as vscode from 'vscode';
import { z } from 'zod';
import type { HookProvider, HooksApi } from '../hooks/hooksApi';
import type { Summarizer } from '../agent/compaction';
import type { ExtensionApiHooks } from './extensionApiHooks';
import { extensionApiSource, UNKNOWN_EXTENSION_LABEL } from './extensionApiHooks';

/** A call of the extension API that cannot be honoured (the caller did not identify itself). */
export class ExtensionApiError extends Error {
  override readonly name = 'ExtensionApiError';
  constructor(
    readonly code: 'invalidExtension' | 'unknownExtension' | 'invalidOptions',
    message: string,
  ) {
    super(message);
  }
}

/** `publisher.name` as VS Code spells extension ids; bounded, it comes from another extension. */
const extensionIdSchema = z
  .string()
  .max(256)
  .regex(/^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9._-]*$/i, 'an extension id is "publisher.name"');

/** What `forExtension` accepts: the caller's `context.extension` or its id. */
export type ExtensionIdentity = string | { readonly id: string };

/**
 * How another extension registers in-process hooks: `api.forExtension(context.extension)` gives a
 * HooksApi whose hooks show as `extension <publisher.name>` in Hook Runs and provenance lines.
 * VS Code does not tell an API who called it, so the caller names itself; the id must be an
 * installed extension (ExtensionApiError otherwise). Each registration returns a disposable the
 * caller owns (push it to its `context.subscriptions`).
 */
export interface HookwiseExtensionApi {
  forExtension(extension: ExtensionIdentity): HooksApi;
  /**
   * A compaction provider with your own summarizer, to replace the built-in compaction: the user
   * switches `built-in compaction` off (Disable Hook on its run, or `hookwise.hooks.disabled`)
   * and you install yours with `api.forExtension(context.extension).use(api.compactionProvider({ name, summarize }))`.
   * PreCompact, PostCompact and SessionStart `compact` fire around your summary as around the built-in one.
   */
  compactionProvider(options: { readonly name: string; readonly summarize: Summarizer }): HookProvider;
  /** @deprecated Use `forExtension(context.extension)`: these hooks are labelled `extension (unknown)`. */
  readonly hooks: HooksApi;
}

/** Options of {@link createExtensionApi}; `getExtension` defaults to `vscode.extensions.getExtension`. */
export interface ExtensionApiOptions {
  readonly hooks: ExtensionApiHooks;
  readonly warn: (message: string) => void;
  readonly getExtension?: (id: string) => { readonly id: string } | undefined;
  /** Builds a compaction provider on the runtime's sessions (HookwiseRuntime.compactionProvider). */
  readonly compactionProvider: (options: { readonly name: string; readonly summarize: Summarizer }) => HookProvider;
}

/** What `compactionProvider` accepts from another extension: bounded, checked before use. */
const compactionOptionsSchema = z.object({
  name: z.string().trim().min(1).max(100),
  summarize: z.custom<Summarizer>((v) => typeof v === 'function', 'summarize must be a function (messages, instructions, signal) => Promise<string>'),
});

/** Builds the API surface another extension calls (see {@link HookwiseExtensionApi}). */
export function createExtensionApi(o: ExtensionApiOptions): HookwiseExtensionApi {
  const getExtension = o.getExtension ?? ((id: string) => vscode.extensions.getExtension(id));
  let warned = false;
  const deprecated = o.hooks.forSource({ kind: 'code', label: UNKNOWN_EXTENSION_LABEL }, () => {
    if (warned) return;
    warned = true;
    o.warn(
      'an extension registered a hook through the deprecated Hookwise API `hooks`; it is labelled "extension (unknown)". Use `api.forExtension(context.extension)` instead.',
    );
  });
  return {
    hooks: deprecated,
    compactionProvider(options) {
      const parsed = compactionOptionsSchema.safeParse(options);
      if (!parsed.success)
        throw new ExtensionApiError('invalidOptions', `Hookwise API compactionProvider(): ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
      return o.compactionProvider({ name: parsed.data.name, summarize: parsed.data.summarize });
    },
    forExtension(extension: ExtensionIdentity): HooksApi {
      const raw: unknown = typeof extension === 'string' ? extension : (extension as { id?: unknown } | undefined)?.id;
      const parsed = extensionIdSchema.safeParse(raw);
      if (!parsed.success)
        throw new ExtensionApiError(
          'invalidExtension',
          `Hookwise API forExtension(): expected your extension's context.extension or its "publisher.name" id, got ${describe(raw)}`,
        );
      const found = getExtension(parsed.data);
      if (found === undefined)
        throw new ExtensionApiError(
          'unknownExtension',
          `Hookwise API forExtension("${parsed.data}"): no installed extension has this id; pass your own context.extension`,
        );
      return o.hooks.forSource(extensionApiSource(found.id));
    },
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return value === null ? 'null' : typeof value;
}
