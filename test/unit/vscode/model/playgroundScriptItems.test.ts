/**
 * The playground script picker (Hookwise: Select Model… → Playground) says which script is in
 * use: that entry is marked current, picked, and first; a script chosen earlier stays on offer.
 */
import { describe, expect, it } from 'vitest';
import { playgroundScriptItems } from '../../../../src/vscode/model/playgroundScriptItems';

const NAME = '.hookwise/playground.json';
const summary = (items: ReturnType<typeof playgroundScriptItems>) =>
  items.map((i) => ({ label: i.label, description: i.description, picked: i.picked === true, script: i.script }));

describe('playground script picker', () => {
  it('with the default script in use, the default entry is current and picked', () => {
    const items = playgroundScriptItems({ provider: 'playground', playgroundScript: '', workspaceScript: '/ws/.hookwise/playground.json' }, NAME);
    expect(summary(items)).toEqual([
      { label: '$(beaker) Default script', description: '$(check) current', picked: true, script: '' },
      { label: '$(folder-opened) Choose a script file…', description: undefined, picked: false, script: undefined },
    ]);
    expect(items[0]?.detail).toBe('.hookwise/playground.json in this workspace');
  });

  it('with a script file in use, that file is listed first, current and picked; the default is not', () => {
    const items = playgroundScriptItems({ provider: 'playground', playgroundScript: '/scripts/rm-rf.json' }, NAME);
    expect(summary(items)).toEqual([
      { label: '$(file) rm-rf.json', description: '$(check) current', picked: true, script: '/scripts/rm-rf.json' },
      { label: '$(beaker) Default script', description: undefined, picked: false, script: '' },
      { label: '$(folder-opened) Choose a script file…', description: undefined, picked: false, script: undefined },
    ]);
    expect(items[0]?.detail).toBe('/scripts/rm-rf.json');
    expect(items[1]?.detail).toBe('The built-in demo (this workspace has no .hookwise/playground.json)');
  });

  it('with another provider in use, nothing is current; the script chosen last is still offered', () => {
    const items = playgroundScriptItems({ provider: 'openai-compatible', playgroundScript: '/scripts/rm-rf.json' }, NAME);
    expect(items.filter((i) => i.picked === true || i.description?.includes('current'))).toEqual([]);
    expect(summary(items).map((i) => [i.label, i.description])).toEqual([
      ['$(beaker) Default script', undefined],
      ['$(file) rm-rf.json', 'last chosen'],
      ['$(folder-opened) Choose a script file…', undefined],
    ]);
  });
});
