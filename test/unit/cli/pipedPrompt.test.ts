import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { composePrompt, readPipedInput } from '../../../src/cli/pipedPrompt';

const never = new AbortController().signal;

describe('composePrompt (as Claude Code 2.1.328 puts the words and the piped input together)', () => {
  it('the words, a newline, then the piped text as it came; either alone when the other is empty', () => {
    expect(composePrompt('summarize', 'line 1\nline 2\n')).toBe('summarize\nline 1\nline 2\n');
    expect(composePrompt('  spaced  ', 'ctx')).toBe('  spaced  \nctx');
    expect(composePrompt('', 'only piped\n')).toBe('only piped\n');
    expect(composePrompt('only words', '')).toBe('only words');
  });
});

describe('readPipedInput', () => {
  it('reads to the end, and decodes UTF-8 split across chunks', async () => {
    const input = new PassThrough();
    const read = readPipedInput(input, { signal: never, firstDataMs: 1000 });
    const text = Buffer.from('naïve — 日本\n');
    input.write(text.subarray(0, 3)); // splits the ï
    input.write(text.subarray(3, 12));
    input.end(text.subarray(12));
    expect(await read).toEqual({ kind: 'text', text: 'naïve — 日本\n' });
  });

  it('an input that ends at once is empty text', async () => {
    const input = new PassThrough();
    const read = readPipedInput(input, { signal: never, firstDataMs: 1000 });
    input.end();
    expect(await read).toEqual({ kind: 'text', text: '' });
  });

  it('goes on without an input where nothing arrives in time, says how to skip the wait, and lets it go', async () => {
    const input = new PassThrough();
    const result = await readPipedInput(input, { signal: never, firstDataMs: 20 });
    expect(result).toEqual({ kind: 'noData', warning: expect.stringContaining('redirect stdin from /dev/null') });
    // Left paused, not destroyed (that would close fd 0 for the next open file to take).
    expect(input.isPaused()).toBe(true);
    expect(input.destroyed).toBe(false);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('once data has come it waits for the end, however long after the first-data wait', async () => {
    const input = new PassThrough();
    const read = readPipedInput(input, { signal: never, firstDataMs: 20 });
    input.write('first part, ');
    await new Promise((resolve) => setTimeout(resolve, 100));
    input.end('then the rest');
    expect(await read).toEqual({ kind: 'text', text: 'first part, then the rest' });
  });

  it('refuses an input over the bound whole, and stops reading it', async () => {
    const input = new PassThrough();
    const read = readPipedInput(input, { signal: never, firstDataMs: 1000, maxBytes: 10 });
    input.write('0123456789');
    input.write('!');
    expect(await read).toEqual({ kind: 'tooLarge', message: expect.stringContaining('nothing was sent') });
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount('data')).toBe(0);
  });

  it('a stop while waiting ends the wait; a stream error gives what had come', async () => {
    const controller = new AbortController();
    const waiting = new PassThrough();
    const read = readPipedInput(waiting, { signal: controller.signal, firstDataMs: 60_000 });
    controller.abort();
    expect(await read).toEqual({ kind: 'aborted' });

    const failing = new PassThrough();
    const partial = readPipedInput(failing, { signal: never, firstDataMs: 1000 });
    failing.write('so far');
    failing.destroy(new Error('EIO'));
    expect(await partial).toEqual({ kind: 'text', text: 'so far' });
  });
});
