import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extensionHookSources } from '../../../src/plugins/extensionHookSources';

const ext = (contributes: unknown) => ({ id: 'acme.guard', extensionPath: '/ext/acme.guard-1.0.0', packageJSON: { contributes } });

describe('extensionHookSources', () => {
  it('reads contributes.hookwise.hooks as a plugin-like source labelled with the extension id', () => {
    const { inputs, problems } = extensionHookSources([ext({ hookwise: { hooks: './hooks/hooks.json' } }), ext({ commands: [] })], '/data');
    expect(problems).toEqual([]);
    expect(inputs).toEqual([
      {
        kind: 'pluginHooksFile',
        file: path.resolve('/ext/acme.guard-1.0.0/hooks/hooks.json'),
        displayFile: 'extension acme.guard › hooks/hooks.json',
        plugin: { name: 'acme.guard', root: '/ext/acme.guard-1.0.0', dataDir: path.join('/data', 'acme.guard') },
      },
    ]);
  });

  it('a path outside the extension or a non-string is refused, naming package.json and the key', () => {
    const { inputs, problems } = extensionHookSources([ext({ hookwise: { hooks: '../../etc/hooks.json' } }), ext({ hookwise: { hooks: 3 } })], '/data');
    expect(inputs).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({
        file: path.join('/ext/acme.guard-1.0.0', 'package.json'),
        jsonPath: 'contributes.hookwise.hooks',
        message: expect.stringContaining('outside the extension'),
      }),
      expect.objectContaining({ jsonPath: 'contributes.hookwise.hooks', message: expect.stringContaining('must be a path') }),
    ]);
  });
});
