import { OutboundError, outboundFetch } from '../../lib/outbound';
import { AiError } from './openai-client';

/**
 * Azure speech: the reply spoken with one of the spec's pt-BR neural voices, answered directly as
 * Ogg/Opus (what WhatsApp plays as a voice note), so no conversion is needed. The endpoint is
 * `https://{region}.tts.speech.microsoft.com/cognitiveservices/v1` (config AZURE_TTS_URL: tests point it
 * at a loopback server).
 */
export const azureTtsUrl = (template: string, region: string) => template.replaceAll('{region}', region);

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

export const ssmlOf = (voice: string, text: string) =>
  `<speak version='1.0' xml:lang='pt-BR'><voice xml:lang='pt-BR' name='${escapeXml(voice)}'>${escapeXml(text)}</voice></speak>`;

export const synthesizeSpeech = async (req: {
  voice: string;
  key: string;
  region: string;
  text: string;
  /** the URL template with `{region}` (config azureTtsUrl) */
  urlTemplate: string;
  timeoutMs?: number;
}): Promise<Buffer> => {
  if (!/^[a-z0-9-]+$/i.test(req.region)) throw new AiError('refused', 'invalid Azure region');
  let res: Response;
  try {
    res = await outboundFetch(azureTtsUrl(req.urlTemplate, req.region), {
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': req.key,
        'Content-Type': 'application/ssml+xml',
        'X-Microsoft-OutputFormat': 'ogg-48khz-16bit-mono-opus',
        'User-Agent': 'zelo',
      },
      body: ssmlOf(req.voice, req.text),
      timeoutMs: req.timeoutMs ?? 30_000,
    });
  } catch (err) {
    if (err instanceof OutboundError) throw new AiError(err.kind, err.message);
    throw new AiError('refused', (err as Error).message);
  }
  if (!res.ok) {
    const kind = res.status === 401 || res.status === 403 ? 'auth' : res.status === 429 ? 'rate_limit' : 'server';
    throw new AiError(kind, `Azure speech HTTP ${res.status}`, res.status);
  }
  const audio = Buffer.from(await res.arrayBuffer());
  if (audio.length === 0) throw new AiError('bad_answer', 'Azure speech answered no audio');

  return audio;
};
