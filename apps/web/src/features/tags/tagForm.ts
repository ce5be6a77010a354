import { DEFAULT_TAG_COLOR, type TTag, type TTagUpdateBody } from '@zelo/shared';

export type TTagFormValues = { name: string; color: string; kanban: boolean };

export const toTagFormValues = (tag: TTag | null): TTagFormValues => ({
  name: tag?.name ?? '',
  color: tag?.color ?? DEFAULT_TAG_COLOR,
  kanban: tag?.kanban === 1,
});

/** the body sent: the kanban flag only from admins (the server refuses a user's change with 403) */
export const toTagRequest = (body: TTagUpdateBody, isAdmin: boolean): TTagUpdateBody => {
  if (isAdmin) {
    return body;
  }
  const { kanban: _kanban, ...rest } = body;

  return rest;
};
