import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tourSteps, tourStepsDoneBy } from '../../../src/vscode/tourSteps';

const pkg: unknown = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
const ID = 'hookwise.hookwise';
const step = (name: string): string => `${ID}#hookwise.gettingStarted#hookwise.${name}`;

describe('the walkthrough steps an action completes (read from package.json, as VS Code reads them)', () => {
  it('each of the tour’s commands and its view completes its own step, and only that one', () => {
    expect(tourStepsDoneBy(ID, pkg, 'onCommand:hookwise.openChat')).toEqual([step('tryPlayground')]);
    expect(tourStepsDoneBy(ID, pkg, 'onCommand:hookwise.selectModel')).toEqual([step('chooseModel')]);
    expect(tourStepsDoneBy(ID, pkg, 'onCommand:hookwise.addHook')).toEqual([step('addHook')]);
    expect(tourStepsDoneBy(ID, pkg, 'onView:hookwise.hookRuns')).toEqual([step('watchHookRuns')]);
    expect(tourStepsDoneBy(ID, pkg, 'onCommand:hookwise.stop')).toEqual([]);
  });

  it('Restart Tour resets every step, in the manifest’s order; a manifest without the walkthrough gives none', () => {
    expect(tourSteps(ID, pkg).map((s) => s.id)).toEqual([step('chooseModel'), step('tryPlayground'), step('addHook'), step('watchHookRuns')]);
    expect(tourSteps(ID, { contributes: {} })).toEqual([]);
    expect(tourStepsDoneBy(ID, undefined, 'onCommand:hookwise.openChat')).toEqual([]);
  });
});
