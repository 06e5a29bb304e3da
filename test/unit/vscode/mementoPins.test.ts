import { expect, it } from 'vitest';
import { mementoPins } from '../../../src/vscode/mementoPins';
import { MemoryMemento } from '../../support/memoryMemento';

it('keeps each approval key once, newest last, dropping the oldest beyond the cap', async () => {
  const state = new MemoryMemento();
  const pins = mementoPins(state, 'k', 3);
  for (const key of ['a', 'b', 'c', 'a', 'd']) await pins.add(key);
  expect(state.get('k')).toEqual(['c', 'a', 'd']);
  expect(pins.has('b')).toBe(false);
  // Another window's store object over the same memento sees the same answers.
  expect(mementoPins(state, 'k', 3).has('a')).toBe(true);
});

it.each([
  ['an object', { a: true }],
  ['a string', 'abc'],
  ['a number', 7],
  ['null', null],
])('storage holding %s approves nothing and never throws; the next yes replaces it', async (_what, stored) => {
  const state = new MemoryMemento({ k: stored });
  const pins = mementoPins(state, 'k', 10);
  expect(pins.has('a')).toBe(false);
  expect(pins.has('abc')).toBe(false);
  await pins.add('a');
  expect(state.get('k')).toEqual(['a']);
});

it('non-string entries in a stored array are ignored, the strings kept', async () => {
  const state = new MemoryMemento({ k: ['a', 3, { b: 1 }, 'c'] });
  expect(mementoPins(state, 'k', 10).has('c')).toBe(true);
  await mementoPins(state, 'k', 10).add('d');
  expect(state.get('k')).toEqual(['a', 'c', 'd']);
});
