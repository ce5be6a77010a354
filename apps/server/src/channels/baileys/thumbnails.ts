// Baileys makes the thumbnail of every image (sharp, up to sharp's default of 268 M pixels, no time limit)
// and video (`ffmpeg` through a shell, no time limit) it sends, unless the message carries one. We make them
// here under limits: an image of more than THUMBNAIL_LIMITS.pixels, or one sharp cannot read in
// THUMBNAIL_LIMITS.seconds, and a video ffmpeg cannot read a frame of in that time, go without a thumbnail.
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFfmpeg, runFfmpeg } from '../../modules/messages/media';

export const THUMBNAIL_LIMITS = { pixels: 40_000_000, seconds: 10, width: 32 };

/** an image's 32-pixel JPEG thumbnail (base64, as Baileys keeps it) and its size; '' when it is refused */
export const imageThumbnail = async (data: Buffer) => {
  try {
    const { default: sharp } = await import('sharp');
    const image = sharp(data, { limitInputPixels: THUMBNAIL_LIMITS.pixels }).timeout({
      seconds: THUMBNAIL_LIMITS.seconds,
    });
    const { width, height } = await image.metadata();
    const thumb = await image.resize(THUMBNAIL_LIMITS.width).jpeg({ quality: 50 }).toBuffer();

    return { jpegThumbnail: thumb.toString('base64'), ...(width && height ? { width, height } : {}) };
  } catch {
    return { jpegThumbnail: '' };
  }
};

/** a video's first frame as a 32-pixel JPEG (base64); '' without ffmpeg or when it fails in time */
export const videoThumbnail = async (data: Buffer) => {
  const ffmpeg = await findFfmpeg({});
  if (!ffmpeg) return { jpegThumbnail: '' };
  const base = join(tmpdir(), `zelo-thumb-${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(`${base}.video`, data);
    await runFfmpeg(
      ffmpeg,
      [
        ...['-y', '-loglevel', 'error', '-ss', '0', '-i', `${base}.video`],
        ...['-vframes', '1', '-vf', `scale=${THUMBNAIL_LIMITS.width}:-1`, '-f', 'image2', `${base}.jpg`],
      ],
      THUMBNAIL_LIMITS.seconds * 1000,
    );

    return { jpegThumbnail: (await readFile(`${base}.jpg`)).toString('base64') };
  } catch {
    return { jpegThumbnail: '' };
  } finally {
    await rm(`${base}.video`, { force: true });
    await rm(`${base}.jpg`, { force: true });
  }
};
