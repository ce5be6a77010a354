import { useQuery } from '@tanstack/react-query';
import {
  AI_KEY_HEADER,
  events,
  PROMPT_MODELS,
  type TPrompt,
  type TPromptBody,
  type TPromptEvent,
  type TPromptModels,
} from '@zelo/shared';
import { api } from '../../api/http';
import { matchesSearch, useLiveList } from '../../components/kit';

export const PROMPTS_QUERY_KEY = ['prompts', 'page'] as const;

const PROMPTS = {
  queryKey: PROMPTS_QUERY_KEY,
  itemsKey: 'prompts',
  matches: (p: TPrompt, search: string) => matchesSearch(search, p.name),
};

/** `company-{id}-prompt`: the prompt on create and update, its id on delete */
export const promptEventChange = (data: TPromptEvent) =>
  data.action === 'delete' ? { remove: Number(data.promptId) } : { upsert: data.prompt };

export const usePrompts = (searchParam: string) =>
  useLiveList<TPrompt, TPromptEvent>({
    ...PROMPTS,
    path: '/prompt',
    searchParam,
    event: events.prompt,
    toChange: promptEventChange,
  });

export const savePrompt = (id: number | null, body: TPromptBody) =>
  id ? api.put<TPrompt>(`/prompt/${id}`, body) : api.post<TPrompt>('/prompt', body);

const DEFAULT_MODELS: TPromptModels = { models: PROMPT_MODELS.map((m) => ({ ...m })), fromServer: false };

/**
 * The model suggestions for the dialog: the spec's models, plus the base URL's `/models` (with the key typed,
 * or the saved prompt's key when the field still shows the mask). A failing call keeps the spec's models.
 */
export const useModelSuggestions = (baseUrl: string, apiKey: string, promptId: number | null) => {
  const typedKey = apiKey && !apiKey.includes('••') ? apiKey : '';
  return useQuery({
    queryKey: ['prompts', 'models', baseUrl, typedKey, promptId],
    staleTime: 60_000,
    retry: false,
    queryFn: async (): Promise<TPromptModels> => {
      const params: Record<string, string> = {};
      if (baseUrl) params.baseUrl = baseUrl;
      if (promptId && !typedKey) params.promptId = String(promptId);
      try {
        return await api.get<TPromptModels>('/prompt/models', {
          params,
          headers: typedKey ? { [AI_KEY_HEADER]: typedKey } : undefined,
        });
      } catch {
        return DEFAULT_MODELS;
      }
    },
    placeholderData: DEFAULT_MODELS,
  });
};
