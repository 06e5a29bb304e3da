import { describe, expect, it } from 'vitest';
import { ChangeThrottle, type ThrottleTimers } from '../../../../src/vscode/tree/changeThrottle';

interface Node {
  readonly name: string;
  readonly parent?: Node;
}

/** A manual clock: timers fire only when the test advances time. */
function fakeTimers(): ThrottleTimers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = until;
    },
    pending: () => timers.length,
  };
}

const root: Node = { name: 'session' };
const agent: Node = { name: 'agent', parent: root };
const occ: Node = { name: 'occ', parent: agent };
const run1: Node = { name: 'run1', parent: occ };
const run2: Node = { name: 'run2', parent: occ };
const other: Node = { name: 'other', parent: agent };

function setup(interval = 100) {
  const timers = fakeTimers();
  const fired: (string[] | undefined)[] = [];
  const throttle = new ChangeThrottle<Node>(
    (nodes) => fired.push(nodes?.map((n) => n.name)),
    (n) => n.parent,
    interval,
    timers,
  );
  return { timers, fired, throttle };
}

describe('ChangeThrottle', () => {
  it('fires the first change at once (next tick) and coalesces a burst into one refresh per interval', () => {
    const { timers, fired, throttle } = setup();
    throttle.add(run1);
    timers.advance(0);
    expect(fired).toEqual([['run1']]);
    for (let i = 0; i < 1000; i++) throttle.add(i % 2 ? run1 : run2);
    timers.advance(50);
    expect(fired).toHaveLength(1);
    timers.advance(50);
    expect(fired).toEqual([['run1'], ['run2', 'run1']]);
  });

  it('never fires more than 10 times per second under a continuous stream', () => {
    const { timers, fired, throttle } = setup();
    for (let t = 0; t < 1000; t += 5) {
      throttle.add(t % 10 ? run1 : other);
      timers.advance(5);
    }
    timers.advance(100);
    expect(fired.length).toBeLessThanOrEqual(11);
    expect(fired.length).toBeGreaterThanOrEqual(9);
  });

  it('drops nodes whose ancestor changed in the same batch', () => {
    const { timers, fired, throttle } = setup();
    throttle.add(run1);
    throttle.add(occ);
    throttle.add(run2);
    throttle.add(other);
    timers.advance(0);
    expect(fired).toEqual([['occ', 'other']]);
  });

  it('a root change (undefined) swallows the batch and fires undefined', () => {
    const { timers, fired, throttle } = setup();
    throttle.add(run1);
    throttle.add(undefined);
    throttle.add(run2);
    timers.advance(0);
    expect(fired).toEqual([undefined]);
  });

  it('flush() fires now and dispose() stops everything', () => {
    const { timers, fired, throttle } = setup();
    throttle.add(run1);
    throttle.flush();
    expect(fired).toEqual([['run1']]);
    expect(throttle.isScheduled).toBe(false);
    throttle.add(run2);
    throttle.dispose();
    timers.advance(1000);
    throttle.add(run1);
    timers.advance(1000);
    expect(fired).toEqual([['run1']]);
    expect(timers.pending()).toBe(0);
  });

  it('does nothing when nothing changed', () => {
    const { fired, throttle } = setup();
    throttle.flush();
    expect(fired).toEqual([]);
  });

  it('a timer that fires early waits out the rest of the interval', () => {
    const timers = fakeTimers();
    const early: ThrottleTimers = { ...timers, setTimeout: (fn, ms) => timers.setTimeout(fn, ms >= 1 ? ms - 0.5 : ms) };
    const fired: (string[] | undefined)[] = [];
    const throttle = new ChangeThrottle<Node>(
      (nodes) => fired.push(nodes?.map((n) => n.name)),
      (n) => n.parent,
      100,
      early,
    );
    throttle.add(run1);
    timers.advance(0);
    throttle.add(run2);
    timers.advance(99.6);
    expect(fired).toEqual([['run1']]);
    timers.advance(0.4);
    expect(fired).toEqual([['run1'], ['run2']]);
  });
});
