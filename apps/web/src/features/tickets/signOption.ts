import { useState } from 'react';

export const SIGN_STORAGE_KEY = 'signOption';

/** The 'sign message' choice, kept locally as signOption, default on (spec 1 §9). */
export const readSignOption = (): boolean => {
  try {
    const raw = localStorage.getItem(SIGN_STORAGE_KEY);
    if (raw === null) {
      return true;
    }

    return JSON.parse(raw) !== false;
  } catch {
    return true;
  }
};

export const useSignOption = () => {
  const [sign, setSignState] = useState(readSignOption);
  const setSign = (value: boolean) => {
    localStorage.setItem(SIGN_STORAGE_KEY, JSON.stringify(value));
    setSignState(value);
  };

  return { sign, setSign };
};
