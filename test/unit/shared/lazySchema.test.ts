import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../../src/shared/lazySchema';

describe('lazySchema', () => {
  it('builds the schema on first use only, and once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.object({ name: z.string().min(1) });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(schema.safeParse({ name: '' }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('validates exactly as the schema it stands for: the same values, the same issues', () => {
    const build = (): z.ZodType => z.object({ n: z.number().int().min(0), tag: z.enum(['a', 'b']).optional() }).strict();
    const eager = build();
    const lazy = lazySchema(build);
    for (const value of [{ n: 1 }, { n: -1 }, { n: 1.5, tag: 'c' }, { n: 2, extra: true }, 'text', null]) {
      expect(JSON.stringify(lazy.safeParse(value))).toBe(JSON.stringify(eager.safeParse(value)));
    }
  });

  it('derives schemas, nests inside others and passes instanceof checks like the built schema', () => {
    const base = lazySchema(() => z.object({ a: z.string() }));
    const extended = base.extend({ b: z.number() });
    expect(extended.parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    expect(base.optional().parse(undefined)).toBeUndefined();
    const outer = z.object({ inner: base, list: z.array(base) });
    expect(outer.safeParse({ inner: { a: 'x' }, list: [{ a: 1 }] }).success).toBe(false);
    expect(outer.parse({ inner: { a: 'x' }, list: [] })).toEqual({ inner: { a: 'x' }, list: [] });
    expect(base instanceof z.ZodObject).toBe(true);
    expect(Object.keys(base.shape)).toEqual(['a']);
  });
});
