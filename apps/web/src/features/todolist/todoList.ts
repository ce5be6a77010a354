/**
 * The to-do list (spec 1 §2: "a local task list"): tasks live in the browser's localStorage, one list per
 * signed-in user (`todolist:<userId>`), never on the server. Each task has an id, its text and when it was
 * created and last changed (ISO strings, so they read back as dates after a reload). Every function here is
 * pure over a list, or reads and writes through the storage it is given, so the page and the tests share it.
 */
export type TTodo = { id: string; text: string; createdAt: string; updatedAt: string };

/** the longest task text kept */
export const TODO_MAX_LENGTH = 1000;

export const todoStorageKey = (userId: number) => `todolist:${userId}`;

type TReadStorage = Pick<Storage, 'getItem'>;
type TWriteStorage = Pick<Storage, 'setItem' | 'removeItem'>;

const isTodo = (value: unknown): value is TTodo => {
  const v = value as Partial<TTodo> | null;

  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.text === 'string' &&
    typeof v.createdAt === 'string' &&
    typeof v.updatedAt === 'string'
  );
};

/** the user's tasks; anything unreadable (no list, broken JSON, foreign entries) is left out, never thrown */
export const readTodos = (storage: TReadStorage, userId: number): TTodo[] => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(todoStorageKey(userId)) ?? '[]');
  } catch {
    return [];
  }

  return Array.isArray(parsed) ? parsed.filter(isTodo) : [];
};

/** stores the user's tasks (an empty list removes the key); false when the browser refused (full or blocked) */
export const writeTodos = (storage: TWriteStorage, userId: number, todos: TTodo[]) => {
  try {
    if (todos.length === 0) {
      storage.removeItem(todoStorageKey(userId));
    } else {
      storage.setItem(todoStorageKey(userId), JSON.stringify(todos));
    }

    return true;
  } catch {
    return false;
  }
};

const cleanText = (text: string) => text.trim().slice(0, TODO_MAX_LENGTH);

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** the list with a new task at its end; a blank text changes nothing */
export const addTodo = (todos: TTodo[], text: string, now = new Date(), id = newId()): TTodo[] => {
  const clean = cleanText(text);
  if (!clean) {
    return todos;
  }
  const at = now.toISOString();

  return [...todos, { id, text: clean, createdAt: at, updatedAt: at }];
};

/** the list with one task's text changed (and its update time); a blank text or an unknown id changes nothing */
export const editTodo = (todos: TTodo[], id: string, text: string, now = new Date()): TTodo[] => {
  const clean = cleanText(text);
  const index = todos.findIndex((todo) => todo.id === id);
  if (!clean || index === -1 || todos[index].text === clean) {
    return todos;
  }
  const next = [...todos];
  next[index] = { ...todos[index], text: clean, updatedAt: now.toISOString() };

  return next;
};

export const removeTodo = (todos: TTodo[], id: string): TTodo[] => todos.filter((todo) => todo.id !== id);

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy HH:mm in local time; '' for an invalid value */
export const formatTodoTime = (iso: string) => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return '';
  }

  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};
