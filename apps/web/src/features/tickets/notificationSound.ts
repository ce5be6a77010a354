import { getVolume } from '../../app/layout/volume';

let context: AudioContext | null = null;

/** A short two-tone chime made with WebAudio, at the volume chosen in the top bar (localStorage `volume`). */
export const playNotificationSound = (volume = getVolume()) => {
  if (volume <= 0 || typeof window === 'undefined') {
    return;
  }
  const Ctor =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) {
    return;
  }
  try {
    context = context ?? new Ctor();
    const ctx = context;
    void ctx.resume?.();
    const start = ctx.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.16, 1320],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, 0.4 * volume), start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.32);
    }
    // for browser tests: the last chime and its volume
    document.documentElement.dataset.lastNotificationSound = String(volume);
  } catch {
    // no audio output: nothing to do
  }
};
