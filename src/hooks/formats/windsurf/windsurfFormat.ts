import type { HookFormatAdapter } from '../hookFormat';
import { MATCH_ALL } from '../../matchers/hookMatcher';

/** Windsurf hook files (docs/formats/windsurf.md). */
export const windsurfFormat: HookFormatAdapter = {
  id: 'windsurf',
  displayName: 'Windsurf',
  locations: [],
  parse: () => ({ hooks: [], diagnostics: [] }),
  compileMatcher: () => MATCH_ALL,
  translateInput: () => ({ stdin: {}, env: {} }),
  interpret: () => ({ status: 'ok', outcome: {} }),
  defaultTimeoutMs: () => 60_000,
  failClosed: () => false,
};
