import { useCallback, useEffect, useState } from 'react';
import { addTodo, editTodo, readTodos, removeTodo, type TTodo, todoStorageKey, writeTodos } from './todoList';

/**
 * The signed-in user's tasks, kept in localStorage on every change and followed across the user's other tabs
 * (the `storage` event). `userId` null (signed out) holds an empty list and stores nothing.
 */
export const useTodos = (userId: number | null) => {
  const [todos, setTodos] = useState<TTodo[]>(() => (userId === null ? [] : readTodos(localStorage, userId)));

  useEffect(() => {
    setTodos(userId === null ? [] : readTodos(localStorage, userId));
    if (userId === null) {
      return;
    }
    const onStorage = (event: StorageEvent) => {
      if (event.key === todoStorageKey(userId)) {
        setTodos(readTodos(localStorage, userId));
      }
    };
    window.addEventListener('storage', onStorage);

    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);

  const change = useCallback(
    (update: (current: TTodo[]) => TTodo[]) => {
      setTodos((current) => {
        const next = update(current);
        if (next !== current && userId !== null) {
          writeTodos(localStorage, userId, next);
        }

        return next;
      });
    },
    [userId],
  );

  return {
    todos,
    add: (text: string) => change((current) => addTodo(current, text)),
    edit: (id: string, text: string) => change((current) => editTodo(current, id, text)),
    remove: (id: string) => change((current) => removeTodo(current, id)),
  };
};
