import { describe, expect, it } from 'vitest';
import './jitless';
import { z } from 'zod';

describe('jitless', () => {
  it('is the setting zod itself reads, set without importing zod', async () => {
    expect(z.config().jitless).toBe(true);
    // an object schema parses without compiling code (the probe `new Function` would throw under the CSP)
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    }) as FunctionConstructor;
    try {
      expect(z.object({ a: z.string(), b: z.number() }).parse({ a: 'x', b: 1 })).toEqual({ a: 'x', b: 1 });
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
