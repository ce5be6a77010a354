import { type TLang, text } from './texts';

/**
 * The pure rules of the bot (reference §2.6 steps 8, 11 and 12, §2.4), with the ancestor's loops removed:
 * every menu re-send is counted against `maxUseBotQueues`, a leaf is answered once, and an option is
 * chosen only by what the customer typed (never "the only child, whatever was typed").
 */

export type TMenuQueue = { id: number; name: string; orderQueue: number | null };
export type TMenuOption = { id: number; parentId: number | null; option: string; title: string; message: string };

/** queues in menu order: orderQueue ascending (none last), then id */
export const sortQueues = <T extends TMenuQueue>(queues: readonly T[]) =>
  [...queues].sort(
    (a, b) => (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) || a.id - b.id,
  );

const optionOrder = (a: TMenuOption, b: TMenuOption) => {
  const na = Number(a.option);
  const nb = Number(b.option);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;

  return a.option.localeCompare(b.option) || a.id - b.id;
};

export const childrenOf = (options: readonly TMenuOption[], parentId: number | null) =>
  options.filter((o) => (o.parentId ?? null) === parentId).sort(optionOrder);

const joinParts = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');

/** greeting + `*[ n ]* - Queue` lines */
export const renderQueueMenu = (greeting: string, queues: readonly TMenuQueue[]) =>
  joinParts(
    greeting,
    sortQueues(queues)
      .map((q, i) => `*[ ${i + 1} ]* - ${q.name}`)
      .join('\n'),
  );

/**
 * One level of a queue's options tree: the header (the queue's greeting at the root, the node's message
 * below it), its children, `[ 0 ]` below the root and `[ # ]` always.
 */
export const renderOptionsLevel = (
  lang: TLang,
  header: string,
  options: readonly TMenuOption[],
  nodeId: number | null,
) => {
  const lines = childrenOf(options, nodeId).map((o) => `*[ ${o.option} ]* - ${o.title}`);
  if (nodeId !== null) lines.push(`*[ 0 ]* - ${text(lang, 'previousMenu')}`);
  lines.push(`*[ # ]* - ${text(lang, 'mainMenu')}`);

  return joinParts(header, lines.join('\n'));
};

/** what the customer typed, as a menu key: trimmed, without WhatsApp bold/italic marks or a final dot */
export const menuKey = (body: string) =>
  body
    .trim()
    .replace(/^[*_~\s]+|[*_~.\s]+$/g, '')
    .toLowerCase();

/** the queue chosen by a 1-based number in the menu order, or null */
export const pickQueue = <T extends TMenuQueue>(queues: readonly T[], body: string): T | null => {
  const key = menuKey(body);
  if (!/^\d{1,3}$/.test(key)) return null;
  const sorted = sortQueues(queues);

  return sorted[Number(key) - 1] ?? null;
};

export type TOptionStep =
  /** `#`: back to the queue menu */
  | { kind: 'main' }
  /** show this level (null = the root): a node with children, or `0` (back: counted as a re-send) */
  | { kind: 'show'; nodeId: number | null; back: boolean }
  /** a leaf: send its message once and leave the bot */
  | { kind: 'leaf'; option: TMenuOption }
  /** nothing matched at the current level */
  | { kind: 'invalid' };

/** the next step of the options tree for what the customer typed at level `currentId` */
export const stepOptions = (options: readonly TMenuOption[], currentId: number | null, body: string): TOptionStep => {
  const key = menuKey(body);
  if (key === '#') return { kind: 'main' };
  const current = currentId === null ? undefined : options.find((o) => o.id === currentId);
  const levelId = current ? current.id : null;
  if (key === '0' && levelId !== null) {
    const parentId = current?.parentId ?? null;

    return { kind: 'show', nodeId: parentId, back: true };
  }
  const chosen = childrenOf(options, levelId).find((o) => o.option.trim().toLowerCase() === key);
  if (!chosen) return { kind: 'invalid' };
  if (childrenOf(options, chosen.id).length > 0) return { kind: 'show', nodeId: chosen.id, back: false };

  return { kind: 'leaf', option: chosen };
};

/** a rating reply: exactly 1, 2 or 3 (spec 1 §9: unsatisfied, satisfied, very satisfied), else null */
export const parseRating = (body: string): 1 | 2 | 3 | null => {
  const key = menuKey(body);

  return key === '1' || key === '2' || key === '3' ? (Number(key) as 1 | 2 | 3) : null;
};

/** when 0 is configured the bot still stops after this many menus in one attendance cycle */
export const SAFETY_MAX_MENU_SENDS = 10;
/** a menu is never re-sent sooner than this after the previous one (bursts, bot-to-bot loops) */
export const MIN_RESEND_MS = 10_000;

export type TResendState = {
  /** menus already sent in this cycle (`tickets.amountUsedBotQueues`) */
  used: number;
  /** the connection's `maxUseBotQueues`; 0 = the safety cap */
  maxUse: number;
  /** the connection's `timeUseBotQueues`, minutes between two re-sends */
  intervalMinutes: number;
  /** when the last menu went out in this cycle */
  lastMenuAt: Date | null;
  now: Date;
};

/**
 * Whether a menu may be re-sent after an unrecognised answer: within the count and not sooner than the
 * interval (and never sooner than MIN_RESEND_MS).
 */
export const mayResendMenu = (s: TResendState): 'send' | 'limit' | 'wait' => {
  const cap = s.maxUse > 0 ? s.maxUse : SAFETY_MAX_MENU_SENDS;
  if (s.used >= cap) return 'limit';
  if (s.lastMenuAt) {
    const gap = Math.max(s.intervalMinutes * 60_000, MIN_RESEND_MS);
    if (s.now.getTime() - s.lastMenuAt.getTime() < gap) return 'wait';
  }

  return 'send';
};
