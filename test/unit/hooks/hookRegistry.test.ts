import { describe, expect, it, vi } from 'vitest';
import { callableAction } from '../../../src/hooks/callableAction';
import { HookRegistrationError } from '../../../src/hooks/hookErrors';
import type { HookEvent } from '../../../src/hooks/hookEvent';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { codeSource, fileSource } from './helpers';

const action = (label: string) => callableAction(() => undefined, { label });
const labels = (registry: HookRegistry, event: HookEvent = 'PreToolUse') => registry.select(event).map((r) => r.action.label);

describe('HookRegistry', () => {
  it('indexes by event and sorts priority desc, config before code, then registration order', () => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: action('code-0'), source: codeSource });
    registry.register({ event: 'PreToolUse', action: action('code-high'), source: codeSource, priority: 5 });
    registry.register({ event: 'Stop', action: action('stop'), source: codeSource });
    registry.setConfigHooks(1, [
      { event: 'PreToolUse', action: action('cfg-a'), source: fileSource('a') },
      { event: 'PreToolUse', action: action('cfg-b'), source: fileSource('b') },
    ]);
    registry.register({ event: 'PreToolUse', action: action('code-1'), source: codeSource });
    expect(labels(registry)).toEqual(['code-high', 'cfg-a', 'cfg-b', 'code-0', 'code-1']);
    expect(labels(registry, 'Stop')).toEqual(['stop']);
    expect(registry.select('SessionEnd')).toEqual([]);
  });

  it('dispose removes a code hook (idempotently) and leaves snapshots already taken intact', () => {
    const registry = new HookRegistry();
    const d = registry.register({ event: 'PreToolUse', action: action('x'), source: codeSource });
    const snapshot = registry.select('PreToolUse');
    d.dispose();
    d.dispose();
    expect(registry.select('PreToolUse')).toEqual([]);
    expect(snapshot.map((r) => r.action.label)).toEqual(['x']);
  });

  it('setConfigHooks replaces the config set atomically, ignores stale generations, keeps code hooks', () => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: action('code'), source: codeSource });
    expect(registry.setConfigHooks(2, [{ event: 'PreToolUse', action: action('g2'), source: fileSource('a') }])).toBe(true);
    expect(registry.setConfigHooks(1, [{ event: 'PreToolUse', action: action('g1'), source: fileSource('a') }])).toBe(false);
    expect(labels(registry)).toEqual(['g2', 'code']);
    expect(registry.select('PreToolUse')[0]?.configGeneration).toBe(2);
    expect(registry.setConfigHooks(3, [])).toBe(true);
    expect(labels(registry)).toEqual(['code']);
    expect(registry.configGeneration).toBe(3);
  });

  it('validates before swapping: an invalid config set leaves the old one in place', () => {
    const registry = new HookRegistry();
    registry.setConfigHooks(1, [{ event: 'PreToolUse', action: action('old'), source: fileSource('a') }]);
    expect(() =>
      registry.setConfigHooks(2, [
        { event: 'PreToolUse', action: action('new'), source: fileSource('a') },
        { event: 'PreToolUse', action: action('bad'), source: fileSource('b'), timeoutMs: -1 },
      ]),
    ).toThrow(HookRegistrationError);
    expect(labels(registry)).toEqual(['old']);
    expect(registry.configGeneration).toBe(1);
  });

  it('refuses unknown events, bad priorities and timeouts, duplicate ids — with typed reasons', () => {
    const registry = new HookRegistry();
    const attempt = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return HookRegistrationError.is(error) ? error.reason : 'other';
      }
      return 'none';
    };
    expect(attempt(() => registry.register({ event: 'Nope' as HookEvent, action: action('x'), source: codeSource }))).toBe('unknownEvent');
    expect(attempt(() => registry.register({ event: 'Stop', action: action('x'), source: codeSource, priority: Number.NaN }))).toBe('invalidPriority');
    expect(attempt(() => registry.register({ event: 'Stop', action: action('x'), source: codeSource, timeoutMs: 0 }))).toBe('invalidTimeout');
    registry.register({ id: 'same', event: 'Stop', action: action('x'), source: codeSource });
    expect(attempt(() => registry.register({ id: 'same', event: 'Stop', action: action('y'), source: codeSource }))).toBe('duplicateId');
  });

  it('tells listeners about changes; a throwing listener does not break registration', () => {
    const registry = new HookRegistry();
    const listener = vi.fn();
    registry.onDidChange(() => {
      throw new Error('x');
    });
    registry.onDidChange(listener);
    registry.register({ event: 'Stop', action: action('x'), source: codeSource });
    registry.setConfigHooks(1, []);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
