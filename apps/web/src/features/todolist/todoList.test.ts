import { describe, expect, it } from 'vitest';
import {
  addTodo,
  editTodo,
  formatTodoTime,
  readTodos,
  removeTodo,
  TODO_MAX_LENGTH,
  todoStorageKey,
  writeTodos,
} from './todoList';

/** a Storage in memory; `full` makes setItem throw as a full or blocked localStorage does */
const memoryStorage = (full = false) => {
  const store = new Map<string, string>();

  return {
    store,
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) {
        throw new DOMException('quota', 'QuotaExceededError');
      }
      store.set(key, value);
    },
    removeItem: (key: string) => void store.delete(key),
  };
};

const T0 = new Date('2025-03-04T10:00:00Z');
const T1 = new Date('2025-03-04T11:30:00Z');

describe('to-do list', () => {
  it('should add trimmed tasks at the end with their creation time, and ignore blank ones', () => {
    const one = addTodo([], '  Call the supplier  ', T0, 'a');
    expect(one).toEqual([
      { id: 'a', text: 'Call the supplier', createdAt: T0.toISOString(), updatedAt: T0.toISOString() },
    ]);
    const two = addTodo(one, 'Send the invoice', T1, 'b');
    expect(two.map((todo) => todo.id)).toEqual(['a', 'b']);
    expect(addTodo(two, '   ', T1, 'c')).toBe(two);
    expect(addTodo([], 'x'.repeat(TODO_MAX_LENGTH + 50), T0, 'd')[0].text).toHaveLength(TODO_MAX_LENGTH);
    expect(addTodo([], 'no id given', T0)[0].id).not.toBe('');
  });

  it('should edit one task and its update time only, leaving blank or unknown edits alone', () => {
    const list = addTodo(addTodo([], 'First', T0, 'a'), 'Second', T0, 'b');
    const edited = editTodo(list, 'b', ' Second, revised ', T1);
    expect(edited[1]).toEqual({
      id: 'b',
      text: 'Second, revised',
      createdAt: T0.toISOString(),
      updatedAt: T1.toISOString(),
    });
    expect(edited[0]).toBe(list[0]);
    expect(list[1].text).toBe('Second');
    expect(editTodo(list, 'b', '  ', T1)).toBe(list);
    expect(editTodo(list, 'zzz', 'Other', T1)).toBe(list);
    expect(editTodo(list, 'a', 'First', T1)).toBe(list);
  });

  it('should remove a task by id', () => {
    const list = addTodo(addTodo([], 'First', T0, 'a'), 'Second', T0, 'b');
    expect(removeTodo(list, 'a').map((todo) => todo.id)).toEqual(['b']);
    expect(removeTodo(list, 'zzz')).toEqual(list);
  });

  it('should keep each user their own list across a reload (write, then read anew)', () => {
    const storage = memoryStorage();
    const ana = addTodo([], 'Ana task', T0, 'a');
    const bruno = addTodo([], 'Bruno task', T1, 'b');
    expect(writeTodos(storage, 1, ana)).toBe(true);
    expect(writeTodos(storage, 2, bruno)).toBe(true);
    expect(readTodos(storage, 1)).toEqual(ana);
    expect(readTodos(storage, 2)).toEqual(bruno);
    expect(readTodos(storage, 3)).toEqual([]);
    expect([...storage.store.keys()].sort()).toEqual([todoStorageKey(1), todoStorageKey(2)]);
    // the last task deleted removes the user's key
    expect(writeTodos(storage, 1, removeTodo(ana, 'a'))).toBe(true);
    expect(storage.store.has(todoStorageKey(1))).toBe(false);
  });

  it('should read a broken or foreign value as an empty list or only its valid tasks, and report a refused write', () => {
    const storage = memoryStorage();
    storage.store.set(todoStorageKey(1), '{not json');
    expect(readTodos(storage, 1)).toEqual([]);
    storage.store.set(todoStorageKey(1), JSON.stringify({ text: 'an object, not a list' }));
    expect(readTodos(storage, 1)).toEqual([]);
    const valid = addTodo([], 'Valid', T0, 'v')[0];
    // the ancestor's shape (no id) and junk are left out
    storage.store.set(
      todoStorageKey(1),
      JSON.stringify([{ text: 'old', createdAt: 'x', updatedAt: 'x' }, 7, null, valid]),
    );
    expect(readTodos(storage, 1)).toEqual([valid]);
    expect(writeTodos(memoryStorage(true), 1, [valid])).toBe(false);
  });

  it('should show times as dd/MM/yyyy HH:mm', () => {
    const local = new Date(2025, 0, 5, 9, 7);
    expect(formatTodoTime(local.toISOString())).toBe('05/01/2025 09:07');
    expect(formatTodoTime('nonsense')).toBe('');
  });
});
