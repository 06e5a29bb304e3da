import { describe, expect, it } from 'vitest';
import { checkValueBounds, jsonTextDepth, parseBoundedJson } from '../../../src/shared/boundedJson';

describe('parseBoundedJson', () => {
  it('parses JSON within the limits', () => {
    expect(parseBoundedJson('{"a":[1,{"b":2}]}')).toEqual({ ok: true, value: { a: [1, { b: 2 }] } });
    expect(parseBoundedJson(`${'['.repeat(64)}${']'.repeat(64)}`).ok).toBe(true);
  });
  it('refuses text nested deeper than the limit before building it', () => {
    expect(parseBoundedJson(`${'['.repeat(65)}${']'.repeat(65)}`)).toEqual({ ok: false, problem: 'depth', error: 'nested deeper than 64 levels' });
    expect(parseBoundedJson(`{"a":${'{"b":'.repeat(200000)}1${'}'.repeat(200000)}}`)).toMatchObject({ ok: false, problem: 'depth' });
    expect(parseBoundedJson('[[[1]]]', { maxDepth: 2 })).toEqual({ ok: false, problem: 'depth', error: 'nested deeper than 2 levels' });
  });
  it('brackets inside strings, escaped quotes included, do not count', () => {
    expect(parseBoundedJson(JSON.stringify({ s: `\\"${'['.repeat(500)}` }))).toMatchObject({ ok: true });
  });
  it('reports syntax errors and size', () => {
    expect(parseBoundedJson('{nope')).toMatchObject({ ok: false, problem: 'syntax' });
    expect(parseBoundedJson('"12345"', { maxChars: 5 })).toEqual({ ok: false, problem: 'size', error: 'larger than 5 characters' });
  });
  it('jsonTextDepth stops counting just past the limit', () => {
    expect(jsonTextDepth(`${'['.repeat(1000)}`, 10)).toBe(11);
    expect(jsonTextDepth('{"a":[1]}', 3)).toBe(2);
  });
});

describe('checkValueBounds', () => {
  it('accepts scalars and shallow values; refuses deep, cyclic and huge shared values', () => {
    expect(checkValueBounds('x')).toBeUndefined();
    expect(checkValueBounds({ a: [1, { b: 2 }] })).toBeUndefined();
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { d: deep };
    expect(checkValueBounds(deep)).toBe('nested deeper than 64 levels');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(checkValueBounds(cyclic)).toBe('nested deeper than 64 levels');
    // Shared references: 2^40 paths through 40 small objects.
    let shared: unknown = 1;
    for (let i = 0; i < 40; i++) shared = { a: shared, b: shared };
    expect(checkValueBounds(shared, { maxNodes: 10_000 })).toBe('has more than 10000 values');
  });
});
