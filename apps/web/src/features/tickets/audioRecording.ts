/** A recording under 10000 bytes is not sent (spec 1 §9); the composer says so. */
export const MIN_RECORDING_BYTES = 10_000;

export const shouldSendRecording = (size: number) => size >= MIN_RECORDING_BYTES;

/** mm:ss of a duration in seconds. */
export const formatDuration = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));

  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** The recorder's container; the server converts it for a voice note ('audio-record-site' in the name marks it). */
export const pickRecordingType = (isSupported: (type: string) => boolean): string => {
  for (const type of ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4']) {
    if (isSupported(type)) {
      return type;
    }
  }

  return '';
};

export const recordingFileName = (mimeType: string, now = Date.now()) => {
  const ext = mimeType.includes('ogg') ? 'ogg' : mimeType.includes('mp4') ? 'm4a' : 'webm';

  return `audio-record-site-${now}.${ext}`;
};
