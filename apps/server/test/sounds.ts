import { execFileSync } from 'node:child_process';

/**
 * A second of a 440 Hz tone encoded by ffmpeg (`format`: mp3, webm…), for tests of voice notes; `fallback` (bytes
 * that only look like that format) when ffmpeg is not there.
 */
export const sineSound = (ffmpeg: string | null, format: string, fallback: Buffer) =>
  ffmpeg
    ? execFileSync(ffmpeg, [
        ...['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1'],
        ...(format === 'webm' ? ['-c:a', 'libopus'] : []),
        ...['-f', format, 'pipe:1'],
      ])
    : fallback;

/** the fallback of an MP3 without ffmpeg: an ID3 header and silence */
export const FAKE_MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000, 0)]);
