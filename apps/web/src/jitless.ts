/**
 * Imported first by main.tsx, before any schema is built: zod compiles its object parsers with `new Function`
 * unless told not to, and even its probe for that is reported as a violation of the app's Content Security
 * Policy (`script-src 'self'`, no 'unsafe-eval'). zod 4 keeps its configuration on `globalThis.__zod_globalConfig`
 * (shared by every copy of zod in a page) and reads it when a schema first parses, so setting it here needs no zod
 * code in the first load: zod arrives with the first screen or form that uses it. jitless.test.ts checks that
 * zod itself reads this setting.
 */
type TZodGlobal = { __zod_globalConfig?: Record<string, unknown> };

const holder = globalThis as TZodGlobal;
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
