import { describe, expect, it } from 'vitest';
import { caretOnEdgeLine, createPromptHistory } from '../../../media/src/promptHistory';

describe('prompt recall (Up / Down in the chat input)', () => {
  it('Up in an empty input recalls the last prompt, Up again the one before; Down walks back to an empty input', () => {
    const h = createPromptHistory();
    h.add('first');
    h.add('second');
    expect(h.older('')).toBe('second');
    expect(h.older('second')).toBe('first');
    expect(h.older('first')).toBeUndefined();
    expect(h.newer('first')).toBe('second');
    expect(h.newer('second')).toBe('');
    expect(h.newer('')).toBeUndefined();
  });

  it('Up in a draft keeps its usual meaning: the draft is never replaced', () => {
    const h = createPromptHistory();
    h.add('sent');
    expect(h.older('my draft')).toBeUndefined();
  });

  it('a recalled prompt that was edited stops the browsing', () => {
    const h = createPromptHistory();
    h.add('one');
    h.add('two');
    expect(h.older('')).toBe('two');
    expect(h.older('two, edited')).toBeUndefined();
    expect(h.newer('two, edited')).toBeUndefined();
  });

  it('sending starts over from the newest; a repeated prompt is kept once; a new chat forgets them', () => {
    const h = createPromptHistory();
    h.add('a');
    h.add('b');
    expect(h.older('')).toBe('b');
    expect(h.older('b')).toBe('a');
    h.add('a');
    h.add('a');
    expect(h.older('')).toBe('a');
    expect(h.older('a')).toBe('b');
    h.clear();
    expect(h.older('')).toBeUndefined();
  });

  it('keeps at most `limit` prompts', () => {
    const h = createPromptHistory(2);
    for (const p of ['1', '2', '3']) h.add(p);
    expect(h.older('')).toBe('3');
    expect(h.older('3')).toBe('2');
    expect(h.older('2')).toBeUndefined();
  });

  it('the arrows leave a multi-line prompt only from its first (Up) or last (Down) line', () => {
    expect(caretOnEdgeLine('one\ntwo', 2, 'first')).toBe(true);
    expect(caretOnEdgeLine('one\ntwo', 5, 'first')).toBe(false);
    expect(caretOnEdgeLine('one\ntwo', 5, 'last')).toBe(true);
    expect(caretOnEdgeLine('one\ntwo', 2, 'last')).toBe(false);
  });
});
