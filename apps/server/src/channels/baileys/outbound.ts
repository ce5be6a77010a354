import type { TOutboundMedia } from '../types';
import { imageThumbnail, videoThumbnail } from './thumbnails';

/** Baileys `sendMessage` contents for the driver's sends */

/** images and videos carry their thumbnail, made under limits (thumbnails.ts), so Baileys makes none */
export const mediaContent = async (media: TOutboundMedia): Promise<Record<string, unknown>> => {
  const mimetype = media.mimetype || 'application/octet-stream';
  const caption = media.caption || undefined;
  if (media.asVoiceNote) {
    // a voice note: ogg/opus (the messages module converts recordings with ffmpeg before they get here)
    return {
      audio: media.data,
      ptt: true,
      mimetype: mimetype.startsWith('audio/ogg') ? 'audio/ogg; codecs=opus' : mimetype,
    };
  }
  if (mimetype.startsWith('image/') && mimetype !== 'image/webp') {
    return { image: media.data, mimetype, caption, ...(await imageThumbnail(media.data)) };
  }
  if (mimetype === 'image/webp') return { sticker: media.data, mimetype };
  if (mimetype.startsWith('video/'))
    return { video: media.data, mimetype, caption, ...(await videoThumbnail(media.data)) };
  if (mimetype.startsWith('audio/')) return { audio: media.data, mimetype, ptt: false };

  return { document: media.data, mimetype, fileName: media.fileName || 'file', caption };
};

/** a vcard as Baileys' contacts message, named by its FN line */
export const contactContent = (vcard: string) => {
  const name = /^FN:(.*)$/m.exec(vcard)?.[1]?.trim() || 'Contato';

  return { contacts: { displayName: name, contacts: [{ displayName: name, vcard }] } };
};

export const locationContent = (location: { latitude: number; longitude: number; description?: string }) => ({
  location: {
    degreesLatitude: location.latitude,
    degreesLongitude: location.longitude,
    ...(location.description ? { name: location.description } : {}),
  },
});
