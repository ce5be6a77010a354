import { createHash, createSign } from 'node:crypto';
import type { TAppContext } from '../../../lib/context';
import { callOut } from './io';

/**
 * Dialogflow ES over REST, with no Google SDK: an OAuth access token from the service-account JSON (a JWT bearer
 * grant signed RS256 with node:crypto, sent to the JSON's own `token_uri`), then `detectIntent` on
 * `{DIALOGFLOW_API_URL}/v2/projects/{project}/agent/sessions/{session}:detectIntent`.
 */

type TServiceAccount = { client_email: string; private_key: string; token_uri: string };

export class DialogflowError extends Error {}

/** the service-account JSON itself is unusable (not JSON, no key, a key that cannot sign): nothing was called */
export class DialogflowInputError extends DialogflowError {}

export const parseServiceAccount = (json: string): TServiceAccount => {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new DialogflowInputError('The service-account JSON is not valid JSON');
  }
  const email = v.client_email;
  const key = v.private_key;
  if (typeof email !== 'string' || typeof key !== 'string') {
    throw new DialogflowInputError('The service-account JSON has no client_email or private_key');
  }
  const tokenUri = typeof v.token_uri === 'string' && v.token_uri ? v.token_uri : 'https://oauth2.googleapis.com/token';
  return { client_email: email, private_key: key, token_uri: tokenUri };
};

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** the signed assertion of the JWT bearer grant (RFC 7523) */
export const signAssertion = (sa: TServiceAccount, now: Date) => {
  const iat = Math.floor(now.getTime() / 1000);
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(
    JSON.stringify({
      iss: sa.client_email,
      scope: 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/dialogflow',
      aud: sa.token_uri,
      iat,
      exp: iat + 3600,
    }),
  );
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(sa.private_key).toString('base64url');
  } catch {
    throw new DialogflowInputError('The service-account private_key cannot sign');
  }
  return `${header}.${claims}.${signature}`;
};

/** tokens by service account (its JSON's hash: a changed JSON takes effect at once), until a minute before expiry */
const tokens = new Map<string, { token: string; until: number }>();

const accessToken = async (ctx: TAppContext, json: string, now: Date) => {
  const sa = parseServiceAccount(json);
  const key = createHash('sha256').update(json).digest('hex');
  const cached = tokens.get(key);
  if (cached && cached.until > now.getTime()) return cached.token;
  const res = await callOut(ctx, sa.token_uri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signAssertion(sa, now),
    }).toString(),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
  if (!res.ok || !body.access_token) {
    throw new DialogflowError(`Google refused the service account (${res.status} ${body.error ?? ''})`.trim());
  }
  if (tokens.size > 1000) tokens.clear();
  tokens.set(key, {
    token: body.access_token,
    until: now.getTime() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000,
  });
  return body.access_token;
};

/** a custom payload's parameters the runtime acts on (the ancestor's): an image URL to send, an emoji to react */
export type TDialogflowPayload = { image?: string; react?: string };

export type TDetectResult = {
  /** fulfilment texts, in order */
  texts: string[];
  /** custom payloads, in order */
  payloads: TDialogflowPayload[];
  /** the agent's spoken answer (text-to-speech enabled on the agent), as it sent it */
  outputAudio: Buffer | null;
  /** the agent ended the conversation (an end-of-conversation intent) */
  endConversation: boolean;
  intent: string | null;
};

type TDetectAnswer = {
  queryResult?: {
    fulfillmentText?: string;
    fulfillmentMessages?: { text?: { text?: string[] }; payload?: Record<string, unknown> }[];
    intent?: { displayName?: string; endInteraction?: boolean };
    diagnosticInfo?: { end_conversation?: boolean };
  };
  outputAudio?: string;
  error?: { message?: string };
};

/** Dialogflow's OGG_OPUS input: what `toVoiceNote(…, { sampleRate })` makes of a customer's audio */
export const DIALOGFLOW_AUDIO_RATE = 16_000;

const payloadOf = (p: Record<string, unknown>): TDialogflowPayload | null => {
  const image = typeof p.image === 'string' && p.image.trim() ? p.image.trim() : undefined;
  const react = typeof p.react === 'string' && p.react.trim() ? p.react.trim() : undefined;

  return image || react ? { ...(image ? { image } : {}), ...(react ? { react } : {}) } : null;
};

/** the query: the customer's text, or their audio (Ogg/Opus at DIALOGFLOW_AUDIO_RATE) for the agent to hear */
const queryOf = (opts: { language: string; text: string; audio?: Buffer }) =>
  opts.audio
    ? {
        queryInput: {
          audioConfig: {
            audioEncoding: 'AUDIO_ENCODING_OGG_OPUS',
            sampleRateHertz: DIALOGFLOW_AUDIO_RATE,
            languageCode: opts.language,
          },
        },
        inputAudio: opts.audio.toString('base64'),
      }
    : { queryInput: { text: { text: opts.text.slice(0, 256), languageCode: opts.language } } };

export const detectIntent = async (
  ctx: TAppContext,
  opts: { projectName: string; jsonContent: string; language: string; sessionId: string; text: string; audio?: Buffer },
  now = new Date(),
): Promise<TDetectResult> => {
  const token = await accessToken(ctx, opts.jsonContent, now);
  const url = `${ctx.config.dialogflowApiUrl}/v2/projects/${encodeURIComponent(opts.projectName)}/agent/sessions/${encodeURIComponent(opts.sessionId)}:detectIntent`;
  const res = await callOut(ctx, url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(queryOf(opts)),
  });
  const body = (await res.json().catch(() => ({}))) as TDetectAnswer;
  if (!res.ok) throw new DialogflowError(`Dialogflow answered ${res.status}: ${body.error?.message ?? ''}`.trim());
  const q = body.queryResult ?? {};
  const fromMessages = (q.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t) => t.trim());
  const texts = fromMessages.length > 0 ? fromMessages : q.fulfillmentText?.trim() ? [q.fulfillmentText] : [];
  const payloads = (q.fulfillmentMessages ?? []).flatMap((m) => {
    const payload = m.payload ? payloadOf(m.payload) : null;
    return payload ? [payload] : [];
  });
  return {
    texts,
    payloads,
    outputAudio: body.outputAudio ? Buffer.from(body.outputAudio, 'base64') : null,
    endConversation: Boolean(q.diagnosticInfo?.end_conversation || q.intent?.endInteraction),
    intent: q.intent?.displayName ?? null,
  };
};
