/**
 * A schema built on first use: `lazySchema(() => z.object(...))` stands for the schema that
 * `build` returns, built (once) the first time any property of it is read. Every method runs
 * on the built schema itself (`parse`, `safeParse`, `optional`, `extend`, …), so it validates
 * exactly as the schema would, and a schema derived from it holds the built one.
 *
 * Why: zod builds each schema at module load, and the CLI's bundle loads every module of the
 * agent at start-up; most schemas (hook inputs and outputs, replays, checkpoints) are never
 * used by a run that fires no hook, yet building them was a large part of start-up.
 *
 * Contract: use it only for a schema that is not given to `z.toJSONSchema` as a child of
 * another schema (zod's metadata registry is keyed by the schema object, and a child put in
 * place as this stand-in would not be found there); parsing through it is always exact.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const real = (): T => (built ??= build());
  // Methods are bound to the built schema once, so `this` inside zod is never the stand-in.
  const bound = new Map<PropertyKey, { readonly method: unknown; readonly fn: unknown }>();
  return new Proxy(Object.create(null) as T, {
    get(_target, key) {
      const schema = real();
      const value: unknown = Reflect.get(schema, key, schema);
      if (typeof value !== 'function' || key === 'constructor') return value;
      const known = bound.get(key);
      if (known?.method === value) return known.fn;
      const fn: unknown = (value as (...args: unknown[]) => unknown).bind(schema);
      bound.set(key, { method: value, fn });
      return fn;
    },
    has: (_target, key) => Reflect.has(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target is empty: a proxy may not report a property it lacks as fixed.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
  });
}
