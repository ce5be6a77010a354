import { QueryClient } from '@tanstack/react-query';
import type { TPrompt } from '@zelo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; body?: unknown; opts?: unknown }[] = [];
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  const record = (method: string) => async (url: string, body?: unknown) => {
    calls.push({ method, url, body });
    if (url === '/prompt/models') {
      return {
        models: [
          { value: 'gpt-4o-mini', label: 'GPT 4.0' },
          { value: 'llama3', label: 'llama3' },
        ],
        fromServer: true,
      };
    }
    return { id: Number(/\/prompt\/(\d+)/.exec(url)?.[1] ?? 7), name: 'Saved', step: method };
  };

  return {
    ...actual,
    api: {
      get: record('GET'),
      post: record('POST'),
      put: record('PUT'),
      delete: record('DELETE'),
      upload: record('UPLOAD'),
    },
  };
});

beforeAll(() => stubLocalStorage());
beforeEach(() => {
  calls.length = 0;
});

const prompt = (fields: Partial<TPrompt> = {}): TPrompt => ({
  id: 1,
  name: 'Atendente',
  prompt: 'Você é a assistente da loja e responde com educação sobre pedidos.',
  model: 'llama3',
  maxTokens: 150,
  temperature: 0.5,
  apiKey: 'sk-••••••1234',
  baseUrl: 'http://127.0.0.1:11434/v1',
  queueId: 3,
  queue: { id: 3, name: 'Suporte' },
  maxMessages: 10,
  voice: 'pt-BR-FranciscaNeural',
  voiceKey: '',
  voiceRegion: 'brazilsouth',
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  ...fields,
});

describe('prompts: what the dialog shows and saves', { timeout: 90_000 }, () => {
  it('fills the form with the spec’s defaults, or the prompt as the server shows it (keys masked)', async () => {
    const { promptFormValues, voiceLabel } = await import('./PromptDialog');
    expect(promptFormValues(null)).toMatchObject({
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: '',
      queueId: '',
      voice: 'texto',
      baseUrl: '',
    });
    expect(promptFormValues(prompt())).toMatchObject({
      apiKey: 'sk-••••••1234',
      baseUrl: 'http://127.0.0.1:11434/v1',
      queueId: 3,
    });
    expect(voiceLabel('pt-BR-FranciscaNeural')).toBe('Francisca');
  });

  it('creates with POST, edits with PUT (a masked key is sent back as is: the server keeps it)', async () => {
    const { savePrompt } = await import('./usePrompts');
    const body = {
      name: 'Atendente',
      prompt: 'x'.repeat(50),
      model: 'llama3',
      maxTokens: 100,
      temperature: 1,
      apiKey: 'sk-••••••1234',
      queueId: 3,
      maxMessages: 10,
    };
    await savePrompt(null, body);
    await savePrompt(4, body);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /prompt', 'PUT /prompt/4']);
    expect(calls[1]?.body).toEqual(body);
  });

  it('keeps the chosen model’s id, not the suggestion’s display text the Autocomplete writes back', async () => {
    const { modelFromInput } = await import('./PromptDialog');
    expect(modelFromInput('GPT 4.0 (gpt-4o-mini)', 'reset')).toBeUndefined();
    expect(modelFromInput('llama3.1:8b', 'input')).toBe('llama3.1:8b');
    expect(modelFromInput('', 'clear')).toBe('');
  });

  it('reads the realtime events as list changes', async () => {
    const { promptEventChange } = await import('./usePrompts');
    const p = prompt();
    expect(promptEventChange({ action: 'delete', promptId: 4 })).toEqual({ remove: 4 });
    expect(promptEventChange({ action: 'update', prompt: p })).toEqual({ upsert: p });
  });
});

describe('PromptsPage', { timeout: 90_000 }, () => {
  it('lists the prompts with sector, model and max tokens, and the actions', async () => {
    const { default: PromptsPage } = await import('./PromptsPage');
    const client = new QueryClient();
    client.setQueryData(['prompts', 'page', '', {}], {
      pages: [{ prompts: [prompt()], hasMore: false, count: 1 }],
      pageParams: [1],
    });
    const html = await renderScreen(<PromptsPage />, {
      path: '/prompts',
      user: sessionUser({ profile: 'admin' }),
      client,
    });
    for (const testId of [
      'prompts-add',
      'prompts-search',
      'prompt-row-Atendente',
      'prompt-edit-Atendente',
      'prompt-delete-Atendente',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toContain('Suporte');
    expect(html).toContain('llama3');
    expect(html).toContain('150');
    expect(html).not.toContain('1234');
  });
});
