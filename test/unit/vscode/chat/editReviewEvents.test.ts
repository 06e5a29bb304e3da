import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileChange, TurnFile } from '../../../../src/agent/checkpoints/checkpointStore';
import { editSummaryEvent, fileDiffEvent } from '../../../../src/vscode/chat/editReviewEvents';
import { chatEventSchema } from '../../../../src/shared/webviewProtocol';

const root = path.resolve('/work/project');
const bytes = (text: string): { kind: 'bytes'; bytes: Buffer } => ({ kind: 'bytes', bytes: Buffer.from(text) });

describe('edit review events', () => {
  it("an Edit card's diff names the file relative to the workspace and shows the changed lines", () => {
    const change: FileChange = {
      toolUseId: 't1',
      toolName: 'Edit',
      path: path.join(root, 'src', 'a.ts'),
      before: bytes('x = 1\ny = 2\n'),
      after: bytes('x = 1\ny = 3\n'),
    };
    const event = fileDiffEvent(change, 'main', root);
    expect(chatEventSchema.parse(event)).toEqual(event);
    expect(event.label).toBe('src/a.ts');
    expect(event.lines.filter((l) => l.kind !== 'context').map((l) => `${l.kind} ${l.text}`)).toEqual(['removed y = 2', 'added y = 3']);
  });

  it('a binary or uncopied file gets a note instead of lines', () => {
    const binary: FileChange = {
      toolUseId: 't2',
      toolName: 'Write',
      path: '/elsewhere/b.bin',
      before: { kind: 'bytes', bytes: Buffer.from([0, 1]) },
      after: bytes('text'),
    };
    expect(fileDiffEvent(binary, 'main', root)).toMatchObject({ label: '/elsewhere/b.bin', lines: [], note: 'No inline diff: binary file.' });
    const big: FileChange = { ...binary, before: { kind: 'unavailable', reason: 'too big' } };
    expect(fileDiffEvent(big, 'main', root).note).toContain('too large');
  });

  it("a turn's summary says which files conflict or cannot be undone", () => {
    const files: TurnFile[] = [
      { path: path.join(root, 'new.txt'), change: 'created', state: 'pending', before: { kind: 'missing' }, after: bytes('a\nb\n') },
      { path: path.join(root, 'c.txt'), change: 'modified', state: 'conflict', before: bytes('1\n'), after: bytes('2\n') },
      {
        path: path.join(root, 'big.txt'),
        change: 'modified',
        state: 'pending',
        unrestorable: 'no copy of it was kept: it is huge',
        before: { kind: 'unavailable', reason: 'it is huge' },
        after: bytes('z'),
      },
    ];
    const event = editSummaryEvent(3, files, root);
    expect(chatEventSchema.parse(event)).toEqual(event);
    expect(event.files.map((f) => [f.label, f.change, f.state, f.added ?? null, f.note ?? null])).toEqual([
      ['new.txt', 'created', 'pending', 2, null],
      ['c.txt', 'modified', 'conflict', 1, expect.stringContaining('Undo left your version')],
      ['big.txt', 'modified', 'pending', null, 'no copy of it was kept: it is huge'],
    ]);
  });
});
