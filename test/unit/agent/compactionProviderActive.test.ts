import { describe, expect, it } from 'vitest';
import { BUILTIN_COMPACTION, CompactingSessions, compactionProvider } from '../../../src/agent/compactionProvider';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { createHooksApi } from '../../../src/hooks/hooksApi';

// Which compaction provider `/compact` and the context-length retry use: the first installed in
// the BeforeStep run order, none once every one is uninstalled, and the built-in again when it
// comes back (the runtime installs it again after its switch is removed).

function setup() {
  const registry = new HookRegistry();
  const hooks = createHooksApi(registry);
  const sessions = new CompactingSessions(() => registry.select('BeforeStep'));
  return { hooks, sessions };
}

describe('CompactingSessions.active', () => {
  it('is the built-in while installed, a replacement once the built-in is off, and none with neither', () => {
    const { hooks, sessions } = setup();
    const builtin = hooks.use(compactionProvider(sessions));
    expect(sessions.active()).toEqual({ name: BUILTIN_COMPACTION });
    const summarize = async (): Promise<string> => 'MINE';
    const mine = hooks.use(compactionProvider(sessions, { name: 'my summarizer', summarize }));
    // Both installed: the built-in was registered first, so it compacts first.
    expect(sessions.active()?.name).toBe(BUILTIN_COMPACTION);
    builtin.dispose();
    expect(sessions.active()).toEqual({ name: 'my summarizer', summarize });
    mine.dispose();
    expect(sessions.active()).toBeUndefined();
    hooks.use(compactionProvider(sessions));
    expect(sessions.active()?.name).toBe(BUILTIN_COMPACTION);
  });

  it('the same replacement installed twice counts until both are uninstalled', () => {
    const { hooks, sessions } = setup();
    const provider = compactionProvider(sessions, { name: 'twice', summarize: async () => 'x' });
    const a = hooks.use(provider);
    const b = hooks.use(provider);
    a.dispose();
    expect(sessions.active()?.name).toBe('twice');
    b.dispose();
    expect(sessions.active()).toBeUndefined();
  });
});
