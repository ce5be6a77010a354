import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';

/**
 * Code that is not needed to show a screen (a dialog, a popover's content, a form) loads when it is first
 * opened, so the first screen a user waits for carries only what it shows (issue 23: the inbox's JavaScript
 * budget). `lazyNamed` is React's `lazy` for a named export; `OnceOpened` mounts its children from the first
 * time `open` is true and keeps them mounted afterwards (closing animations and state survive), with no
 * placeholder while the chunk arrives (a dialog simply appears a moment later).
 */
// biome-ignore lint/suspicious/noExplicitAny: a component of any props, as React's own lazy() takes
export const lazyNamed = <TModule extends Record<K, ComponentType<any>>, K extends keyof TModule>(
  load: () => Promise<TModule>,
  name: K,
) => lazy(() => load().then((module) => ({ default: module[name] })));

export const OnceOpened = ({ open, children }: { open: boolean; children: ReactNode }) => {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;

  return <Suspense fallback={null}>{children}</Suspense>;
};
