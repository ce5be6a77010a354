import { useCallback, useState } from 'react';

export const VOLUME_STORAGE_KEY = 'volume';

/** Notification volume, 0 to 1, default 1 (spec 1 §9). Sounds read it with `getVolume()`. */
export const getVolume = (): number => {
  const stored = localStorage.getItem(VOLUME_STORAGE_KEY);
  const value = stored === null ? Number.NaN : Number(stored);

  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
};

export const useVolume = () => {
  const [volume, setVolumeState] = useState(getVolume);
  const setVolume = useCallback((value: number) => {
    const clamped = Math.min(1, Math.max(0, Math.round(value * 10) / 10));
    localStorage.setItem(VOLUME_STORAGE_KEY, String(clamped));
    setVolumeState(clamped);
  }, []);

  return { volume, setVolume };
};
