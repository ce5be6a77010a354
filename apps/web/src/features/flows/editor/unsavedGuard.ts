import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext } from 'react-router';

type TNavigatorLike = { push: (...args: never[]) => void; replace: (...args: never[]) => void };

/**
 * Holds back the router's in-app navigations while `shouldBlock()` says so: each one is handed to `onBlocked` as
 * a function that performs it. Answers the function that puts the navigator back as it was.
 */
export const guardNavigator = (
  navigator: TNavigatorLike,
  shouldBlock: () => boolean,
  onBlocked: (proceed: () => void) => void,
) => {
  const { push, replace } = navigator;
  const wrap =
    (original: (...args: never[]) => void) =>
    (...args: never[]) => {
      if (shouldBlock()) {
        onBlocked(() => original.apply(navigator, args));
      } else {
        original.apply(navigator, args);
      }
    };
  navigator.push = wrap(push);
  navigator.replace = wrap(replace);

  return () => {
    navigator.push = push;
    navigator.replace = replace;
  };
};

/**
 * The editor's unsaved-changes guard: while `dirty`, leaving the page through the app (a menu link, the back
 * button of the page) asks first, and closing or reloading the tab gets the browser's own question.
 * Answers the pending question (`open`) with `leave` and `stay`.
 */
export const useUnsavedGuard = (dirty: boolean) => {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const [pending, setPending] = useState<(() => void) | null>(null);

  useEffect(
    () =>
      guardNavigator(
        navigator as unknown as TNavigatorLike,
        () => dirtyRef.current,
        (proceed) => setPending(() => proceed),
      ),
    [navigator],
  );

  useEffect(() => {
    if (!dirty) {
      return;
    }
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);

    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const leave = useCallback(() => {
    const proceed = pending;
    setPending(null);
    if (proceed) {
      dirtyRef.current = false;
      proceed();
    }
  }, [pending]);
  const stay = useCallback(() => setPending(null), []);

  return { open: pending !== null, leave, stay };
};
