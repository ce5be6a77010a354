import { FLOW_IMAGE_QUALITY, FLOW_UPLOAD_EXTENSIONS, FLOW_UPLOAD_LIMITS, type TFlowUploadKind } from '@zelo/shared';

/*
 * Uploads of the image, audio, video and content nodes (spec 3 §5, §9): the accepted types and sizes, checked
 * here before the upload (the server checks the content again), and the image compression.
 */

export type TMediaKind = 'img' | 'audio' | 'video';

const KIND: Record<TMediaKind, TFlowUploadKind> = { img: 'image', audio: 'audio', video: 'video' };
const ACCEPT: Record<TMediaKind, string> = {
  img: 'image/png,image/jpeg,.png,.jpg,.jpeg',
  audio: 'audio/ogg,audio/mpeg,audio/opus,.ogg,.mp3,.opus',
  video: 'video/mp4,.mp4',
};
const MB = 1024 * 1024;

export const MEDIA_LIMITS = Object.fromEntries(
  (['img', 'audio', 'video'] as const).map((kind) => [
    kind,
    {
      maxMb: FLOW_UPLOAD_LIMITS[KIND[kind]] / MB,
      extensions: [...FLOW_UPLOAD_EXTENSIONS[KIND[kind]]],
      accept: ACCEPT[kind],
    },
  ]),
) as Record<TMediaKind, { maxMb: number; extensions: string[]; accept: string }>;
export const IMAGE_QUALITY = FLOW_IMAGE_QUALITY;

export type TMediaProblem =
  | { key: 'flows.dialogs.tooLarge'; mb: number }
  | { key: 'flows.dialogs.wrongType'; accept: string };

/** Why a file cannot be uploaded for a node of `kind`, or null: its extension and its size. */
export const mediaProblem = (kind: TMediaKind, file: { name: string; size: number }): TMediaProblem | null => {
  const limits = MEDIA_LIMITS[kind];
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!limits.extensions.includes(extension)) {
    return { key: 'flows.dialogs.wrongType', accept: limits.extensions.join(', ') };
  }
  if (file.size > limits.maxMb * MB) {
    return { key: 'flows.dialogs.tooLarge', mb: limits.maxMb };
  }

  return null;
};

/** A JPEG re-encoded at quality 0.7 when that makes it smaller (a PNG is kept: quality does not apply to it). */
export const compressImage = async (file: File): Promise<File> => {
  if (!/jpe?g$/i.test(file.name) || typeof createImageBitmap === 'undefined' || typeof document === 'undefined') {
    return file;
  }
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', IMAGE_QUALITY));

    return blob && blob.size < file.size ? new File([blob], file.name, { type: 'image/jpeg' }) : file;
  } catch {
    return file;
  }
};

/** Where a stored flow file is served (spec 3 §7: `{host}/public/{file}`); a full URL is kept. */
export const mediaUrl = (stored: string) =>
  /^(https?:|blob:|data:|\/)/.test(stored) ? stored : `/public/${stored.split('/').map(encodeURIComponent).join('/')}`;
