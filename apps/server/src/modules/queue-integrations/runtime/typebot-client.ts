import type { TAppContext } from '../../../lib/context';
import { callOut } from './io';

/** What Typebot's v1 chat API answers (startChat / continueChat), as far as Zelo reads it. */
export type TTypebotMessage = {
  type: string;
  content?: { richText?: unknown; url?: string; markdown?: string; plainText?: string };
};
export type TTypebotReply = {
  sessionId?: string;
  messages: TTypebotMessage[];
  input?: { type?: string; items?: { content?: string }[]; options?: { labels?: { placeholder?: string } } };
};

const base = (url: string) => url.replace(/\/+$/, '');

const post = async (ctx: TAppContext, url: string, body: unknown): Promise<TTypebotReply> => {
  const res = await callOut(ctx, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`Typebot answered ${res.status}`);
  const data = (await res.json()) as Partial<TTypebotReply>;
  return { ...data, messages: Array.isArray(data.messages) ? data.messages : [] };
};

/** POST {url}/api/v1/typebots/{slug}/startChat with the prefilled variables */
export const startChat = (ctx: TAppContext, url: string, slug: string, prefilled: Record<string, string>) =>
  post(ctx, `${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`, {
    isStreamEnabled: false,
    isOnlyRegistering: false,
    prefilledVariables: prefilled,
  });

/** POST {url}/api/v1/sessions/{id}/continueChat with the customer's text */
export const continueChat = (ctx: TAppContext, url: string, sessionId: string, message: string) =>
  post(ctx, `${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message });
