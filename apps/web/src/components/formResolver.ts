import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * zodResolver for a form whose fields hold plain editable values (strings, ids, arrays) while the shared
 * schema's input type is looser (coerced fields read as `unknown`, defaults make keys optional).
 * react-hook-form's Resolver is invariant in its values type, so the one unavoidable cast lives here.
 */
export const formResolver = <TValues extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput>,
): Resolver<TValues, unknown, TOutput> =>
  zodResolver(schema as z.ZodType<TOutput, FieldValues>) as unknown as Resolver<TValues, unknown, TOutput>;
