import { z } from 'zod';

/**
 * Imported first by main.tsx, before any schema is built: zod compiles its object parsers with `new Function`
 * unless told not to, and even its probe for that is reported as a violation of the app's Content Security
 * Policy (`script-src 'self'`, no 'unsafe-eval').
 */
z.config({ jitless: true });
