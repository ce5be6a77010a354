import { OutboundError, outboundFetch } from '../../lib/outbound';

/**
 * An OpenAI-compatible API (OpenAI, Ollama, vLLM, a proxy) over the outbound guard. No client is cached:
 * every call is given the key and base URL read at that moment, so a key change takes effect at once.
 */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export type TAiEndpoint = { baseUrl?: string | null; apiKey: string };

export type TAiFailureKind = 'network' | 'timeout' | 'auth' | 'rate_limit' | 'server' | 'refused' | 'bad_answer';

/** a call that got no usable answer; `kind` says why (shown to the attendants on the ticket) */
export class AiError extends Error {
  readonly kind: TAiFailureKind;
  readonly status?: number;

  constructor(kind: TAiFailureKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

const base = (endpoint: TAiEndpoint) => (endpoint.baseUrl || OPENAI_BASE_URL).replace(/\/+$/, '');

const call = async (endpoint: TAiEndpoint, path: string, init: RequestInit, timeoutMs: number) => {
  let res: Response;
  try {
    res = await outboundFetch(`${base(endpoint)}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${endpoint.apiKey}` },
      timeoutMs,
    });
  } catch (err) {
    if (err instanceof OutboundError) throw new AiError(err.kind, err.message);
    throw new AiError('refused', (err as Error).message);
  }
  if (res.ok) return res;
  const detail = (await res.text().catch(() => '')).slice(0, 300);
  const kind: TAiFailureKind =
    res.status === 401 || res.status === 403
      ? 'auth'
      : res.status === 429
        ? 'rate_limit'
        : res.status >= 500
          ? 'server'
          : 'bad_answer';
  throw new AiError(kind, `HTTP ${res.status}${detail ? `: ${detail}` : ''}`, res.status);
};

export type TChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };
export type TUsage = { promptTokens: number; completionTokens: number; totalTokens: number };

export const chatCompletion = async (
  endpoint: TAiEndpoint,
  req: { model: string; messages: TChatMessage[]; maxTokens: number; temperature: number; timeoutMs?: number },
): Promise<{ text: string; usage: TUsage }> => {
  const res = await call(
    endpoint,
    '/chat/completions',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: req.model,
        messages: req.messages,
        max_tokens: req.maxTokens,
        temperature: req.temperature,
      }),
    },
    req.timeoutMs ?? 60_000,
  );
  const data = (await res.json().catch(() => undefined)) as
    | {
        choices?: { message?: { content?: unknown } }[];
        usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
      }
    | undefined;
  const text = data?.choices?.[0]?.message?.content;
  if (typeof text !== 'string') throw new AiError('bad_answer', 'the answer holds no message');

  return {
    text,
    usage: {
      promptTokens: Number(data?.usage?.prompt_tokens ?? 0) || 0,
      completionTokens: Number(data?.usage?.completion_tokens ?? 0) || 0,
      totalTokens: Number(data?.usage?.total_tokens ?? 0) || 0,
    },
  };
};

/** `/audio/transcriptions` (multipart), `whisper-1` unless told */
export const transcribe = async (
  endpoint: TAiEndpoint,
  req: { audio: Buffer; fileName: string; mimeType: string; model?: string; timeoutMs?: number },
): Promise<string> => {
  const form = new FormData();
  form.append('model', req.model ?? 'whisper-1');
  form.append('file', new Blob([new Uint8Array(req.audio)], { type: req.mimeType }), req.fileName);
  const res = await call(endpoint, '/audio/transcriptions', { method: 'POST', body: form }, req.timeoutMs ?? 60_000);
  const data = (await res.json().catch(() => undefined)) as { text?: unknown } | undefined;
  if (typeof data?.text !== 'string') throw new AiError('bad_answer', 'the transcription holds no text');

  return data.text;
};

/** the ids `/models` lists (OpenAI's `{data: [{id}]}`), sorted */
export const listModels = async (endpoint: TAiEndpoint, timeoutMs = 4_000): Promise<string[]> => {
  const res = await call(endpoint, '/models', { method: 'GET' }, timeoutMs);
  const data = (await res.json().catch(() => undefined)) as { data?: { id?: unknown }[] } | undefined;
  if (!Array.isArray(data?.data)) throw new AiError('bad_answer', 'no model list');

  return [...new Set(data.data.map((m) => m.id).filter((id): id is string => typeof id === 'string'))].sort();
};
