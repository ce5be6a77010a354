import { isValidInterval, text } from './nodeForms';
import type { TNodeData } from './nodeSpec';

/*
 * The content node's cards (spec 3 §2.9, §3): an ordered sequence of message, interval, image, audio and video
 * cards, stored as `{seq, elements}` — `seq` the cards' ids in order (`message0`, `img1`…), each element
 * `{type, value, number, original?, record?}` with `number` its id.
 */

export const CARD_TYPES = ['message', 'interval', 'img', 'audio', 'video'] as const;
export type TCardType = (typeof CARD_TYPES)[number];
export type TCard = {
  number: string;
  type: TCardType;
  value: string;
  original?: string;
  record?: boolean;
  /** a file chosen in this dialog, uploaded on save */
  file?: File;
};

const isCardType = (v: unknown): v is TCardType => (CARD_TYPES as readonly unknown[]).includes(v);

/** The cards of a content node's data, in `seq` order (elements missing from `seq` come last). */
export const cardsOf = (data: TNodeData | null): TCard[] => {
  const elements = Array.isArray(data?.elements) ? (data.elements as Record<string, unknown>[]) : [];
  const seq = Array.isArray(data?.seq) ? (data.seq as unknown[]).map(String) : [];
  const cards = elements
    .filter((e) => isCardType(e.type))
    .map(
      (e): TCard => ({
        number: text(e.number),
        type: e.type as TCardType,
        value: text(e.value),
        ...(e.original != null ? { original: text(e.original) } : {}),
        ...(e.record != null ? { record: Boolean(e.record) } : {}),
      }),
    );
  const rank = (c: TCard) => {
    const i = seq.indexOf(c.number);

    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };

  return cards.sort((a, b) => rank(a) - rank(b));
};

/** A new card's id: its type and the next free index (`message3`). */
export const nextCardNumber = (cards: TCard[], type: TCardType) => {
  const used = new Set(cards.map((c) => c.number));
  let i = cards.length;
  while (used.has(`${type}${i}`)) {
    i++;
  }

  return `${type}${i}`;
};

export const addCard = (cards: TCard[], type: TCardType): TCard[] => [
  ...cards,
  {
    number: nextCardNumber(cards, type),
    type,
    value: '',
    ...(type === 'audio' || type === 'video' ? { record: false } : {}),
  },
];

export const moveCard = (cards: TCard[], index: number, by: -1 | 1): TCard[] => {
  const to = index + by;
  if (to < 0 || to >= cards.length) {
    return cards;
  }
  const next = [...cards];
  [next[index], next[to]] = [next[to], next[index]];

  return next;
};

export type TContentProblem = 'noCardsError' | 'emptyCards' | 'emptyMessage' | 'badInterval';

/** Why the cards cannot be saved (the spec's messages), or null. */
export const contentProblem = (cards: TCard[]): TContentProblem | null => {
  if (cards.length === 0) {
    return 'noCardsError';
  }
  if (cards.some((c) => (c.type === 'img' || c.type === 'audio' || c.type === 'video') && !c.file && !c.value)) {
    return 'emptyCards';
  }
  if (cards.some((c) => c.type === 'message' && !c.value.trim())) {
    return 'emptyMessage';
  }
  if (cards.some((c) => c.type === 'interval' && !isValidInterval(c.value))) {
    return 'badInterval';
  }

  return null;
};

/** The node's data from cards whose files are all uploaded. */
export const contentData = (cards: TCard[]): TNodeData => ({
  seq: cards.map((c) => c.number),
  elements: cards.map(({ file: _file, ...card }) => card),
});
