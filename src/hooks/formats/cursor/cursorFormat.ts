import type { HookFormatAdapter } from '../hookFormat';
import { MATCH_ALL } from '../../matchers/hookMatcher';

/** Cursor hook files (docs/formats/cursor.md). */
export const cursorFormat: HookFormatAdapter = {
  id: 'cursor',
  displayName: 'Cursor',
  locations: [],
  parse: () => ({ hooks: [], diagnostics: [] }),
  compileMatcher: () => MATCH_ALL,
  translateInput: () => ({ stdin: {}, env: {} }),
  interpret: () => ({ status: 'ok', outcome: {} }),
  defaultTimeoutMs: () => 60_000,
  failClosed: () => false,
};
