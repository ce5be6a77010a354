import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TConfig } from '../../config';
import { FFMPEG_LIMITS, toVoiceNote } from './media';

// a stand-in ffmpeg: writes its pid and arguments, ignores SIGTERM and never finishes (a file it chokes on)
const dir = mkdtempSync(join(tmpdir(), 'zelo-ffmpeg-'));
const fake = join(dir, 'ffmpeg');
writeFileSync(
  fake,
  `#!/bin/sh\ntrap '' TERM\necho $$ > "${dir}/pid"\necho "$@" > "${dir}/args"\nwhile true; do sleep 1; done\n`,
);
chmodSync(fake, 0o755);
const config = { ffmpegPath: fake } as TConfig;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('ffmpeg on a tenant file', () => {
  it('is killed (SIGKILL) when it passes its time, with the sound, output and thread limits on its command', async () => {
    expect(await toVoiceNote(config, Buffer.from('a recording'), { timeoutMs: 500 })).toBeNull();
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
    const args = readFileSync(join(dir, 'args'), 'utf8').trim().split(' ');
    expect(args.slice(0, 3)).toEqual(['-nostdin', '-threads', '1']);
    expect(args[args.indexOf('-t') + 1]).toBe(String(FFMPEG_LIMITS.voiceNoteSeconds));
    expect(args[args.indexOf('-fs') + 1]).toBe(String(FFMPEG_LIMITS.outputBytes));
  });

  it('is not started for a file over the input limit', async () => {
    rmSync(join(dir, 'args'), { force: true });
    expect(await toVoiceNote(config, Buffer.alloc(FFMPEG_LIMITS.inputBytes + 1))).toBeNull();
    expect(existsSync(join(dir, 'args'))).toBe(false);
  });
});
