import { createContext, useContext } from 'react';

/** A node's state in the test run: lit while it runs, marked once it ran or waits for the customer. */
export type TNodeRunState = 'running' | 'waiting' | 'done' | 'failed';

export type TEditorActions = {
  duplicate: (id: string) => void;
  remove: (id: string) => void;
  /** the test run's state of each node it reached */
  runStates: Record<string, TNodeRunState>;
};

export const EditorContext = createContext<TEditorActions>({
  duplicate: () => undefined,
  remove: () => undefined,
  runStates: {},
});

export const useEditorActions = () => useContext(EditorContext);
