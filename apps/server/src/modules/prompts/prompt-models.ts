import { PROMPT_MODELS, type TPromptModels } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { assertOutboundUrl } from '../../lib/outbound';
import { assertSecretRetyped } from '../../lib/secret-retype';
import { openSecret } from '../../lib/secrets';
import { listModels } from '../ai/openai-client';
import { findPrompt } from './prompts.repo';

/**
 * The model suggestions: the spec's two, then what the base URL's `/models` lists (a local Ollama's models,
 * a proxy's) when it answers within a few seconds. A URL the guard refuses is an error; a server that does
 * not answer just adds nothing. The key is the one typed in the form, else the saved prompt's — and the
 * saved key only for the saved base URL: another one needs the key typed (ERR_SECRET_RETYPE_REQUIRED).
 */
export const promptModels = async (
  ctx: TAppContext,
  auth: TAuth,
  query: { baseUrl?: string | null; promptId?: number },
  typedKey: string | undefined,
): Promise<TPromptModels> => {
  const saved = query.promptId ? await findPrompt(ctx.db, auth.companyId, query.promptId) : undefined;
  if (query.promptId && !saved) throw new AppError('ERR_NO_PROMPT_FOUND');
  const baseUrl = query.baseUrl === undefined ? saved?.baseUrl : query.baseUrl;
  const known = PROMPT_MODELS.map((m) => ({ value: m.value, label: m.label }));
  let apiKey = typedKey?.trim() ?? '';
  if (saved) {
    assertSecretRetyped({
      before: saved.baseUrl,
      after: baseUrl,
      hasStored: !!saved.apiKey,
      keepsStored: !apiKey,
      path: 'apiKey',
    });
  }
  if (!apiKey && saved) {
    try {
      apiKey = openSecret(saved.apiKey);
    } catch {
      apiKey = '';
    }
  }
  if (baseUrl) await assertOutboundUrl(baseUrl);
  if (!baseUrl && !apiKey) return { models: known, fromServer: false };
  try {
    const ids = await listModels({ baseUrl, apiKey }, 4_000);
    const listed = ids.filter((id) => !known.some((k) => k.value === id)).map((id) => ({ value: id, label: id }));

    return { models: [...known, ...listed], fromServer: true };
  } catch {
    return { models: known, fromServer: false };
  }
};
