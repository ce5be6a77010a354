/* Kept apart from messages.ts (its zod schemas): the notifications of every screen read these labels. */

/**
 * The fixed labels a ticket's `lastMessage` holds for a message without text, stored in Portuguese as the
 * reference does (clients show them as they are); Zelo's web app shows them in the agent's language.
 */
export const PREVIEW_LABELS = {
  image: 'Imagem',
  audio: 'Áudio',
  video: 'Vídeo',
  application: 'Documento',
  vcard: 'Contato',
  contactMessage: 'Contatos',
  location: 'Localização',
} as const;
export type TPreviewLabel = keyof typeof PREVIEW_LABELS;
