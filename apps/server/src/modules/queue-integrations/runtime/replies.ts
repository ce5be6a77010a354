import { setTimeout as sleep } from 'node:timers/promises';
import type { TAppContext } from '../../../lib/context';
import { resolveType, toVoiceNote } from '../../messages/media';
import { sendTicketMedia, sendTicketText } from '../../messages/send-message';
import { callOut } from './io';

/** the largest file an integration may hand over by URL (image, audio) */
const MAX_MEDIA_BYTES = 16 * 1024 * 1024;

/**
 * An integration's replies on the ticket's own connection, stored and announced like every bot message, each
 * after `delayMs` (the "typing" pause between messages).
 */
export const replyText = async (ctx: TAppContext, companyId: number, ticketId: number, body: string, delayMs = 0) => {
  if (!body.trim()) return;
  if (delayMs > 0) await sleep(delayMs);
  await sendTicketText(ctx, { companyId, ticketId, body, source: 'bot' });
};

/**
 * A file the integration named by URL: fetched through the SSRF guard, typed by its content, then sent. With
 * `voiceNote`, sound is converted to Ogg/Opus and sent as a voice note, as a recorded reply is (as a plain file when
 * ffmpeg is not there or cannot read it).
 */
export const replyMediaUrl = async (
  ctx: TAppContext,
  companyId: number,
  ticketId: number,
  url: string,
  delayMs = 0,
  opts: { voiceNote?: boolean } = {},
) => {
  const res = await callOut(ctx, url, { method: 'GET', timeoutMs: 30_000 });
  if (!res.ok) throw new Error(`media ${url} answered ${res.status}`);
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length === 0 || data.length > MAX_MEDIA_BYTES) throw new Error(`media ${url}: ${data.length} bytes`);
  if (delayMs > 0) await sleep(delayMs);
  const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file');
  const voice =
    opts.voiceNote && resolveType(data, fileName).kind === 'audio' ? await toVoiceNote(ctx.config, data) : null;
  const file = voice
    ? {
        data: voice,
        mimetype: 'audio/ogg; codecs=opus',
        fileName: `${fileName.replace(/\.[^.]*$/, '')}.ogg`,
        voiceNote: true,
      }
    : { data, mimetype: res.headers.get('content-type') ?? 'application/octet-stream', fileName };
  await sendTicketMedia(ctx, { companyId, ticketId, source: 'bot', files: [file], bodies: [''] });
};
