import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { describeThrown } from '../../shared/describeThrown';
import { hookFormatAdapter, hookFormatName } from './formatRegistry';
import type { FormatFileContent, FormatFileWhere, HookFormatId } from './hookFormat';

/** What the loader keeps of one foreign hooks file: its format and what its adapter read. */
export interface FormatFileRead extends FormatFileContent {
  readonly format: HookFormatId;
  readonly diagnostics: ConfigDiagnostic[];
}

/**
 * Reads one file of `format` with its adapter. An adapter that throws (a bug) makes the file one
 * `loadFailed` error naming it, so the other sources still load.
 */
export function readFormatFileText(format: HookFormatId, text: string, where: FormatFileWhere): FormatFileRead {
  const adapter = hookFormatAdapter(format);
  if (adapter === undefined) return { format, hooks: [], diagnostics: [] };
  try {
    const content = adapter.parse(text, where);
    return { format, hooks: content.hooks, diagnostics: content.diagnostics };
  } catch (error) {
    return {
      format,
      hooks: [],
      diagnostics: [
        {
          file: where.file,
          displayFile: where.displayFile,
          jsonPath: '',
          severity: 'error',
          code: 'loadFailed',
          message: `this ${hookFormatName(format)} hooks file could not be read (${describeThrown(error)}); it contributes nothing, the other sources still load`,
        },
      ],
    };
  }
}
