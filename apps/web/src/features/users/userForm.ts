import type { TAllTicket, TProfile, TUser, TUserUpdateBody } from '@zelo/shared';

export type TUserFormValues = {
  name: string;
  email: string;
  password: string;
  profile: TProfile;
  allTicket: TAllTicket;
  canSeeTicketsWithoutQueue: boolean;
  whatsappId: number | null;
  queueIds: number[];
};

export const toUserFormValues = (user: TUser | null): TUserFormValues => ({
  name: user?.name ?? '',
  email: user?.email ?? '',
  password: '',
  profile: user?.profile ?? 'user',
  allTicket: user?.allTicket ?? 'desabled',
  canSeeTicketsWithoutQueue: user?.canSeeTicketsWithoutQueue ?? false,
  whatsappId: user?.whatsappId ?? null,
  queueIds: user?.queueIds ?? user?.queues.map((q) => q.id) ?? [],
});

/**
 * Fields only an admin may change (spec 1 §6; 'ticket without queue' is treated as an access field too);
 * for anybody else they are left out of the request.
 */
const ADMIN_FIELDS = ['profile', 'queueIds', 'whatsappId', 'allTicket', 'canSeeTicketsWithoutQueue'] as const;

export const toUserRequest = (body: TUserUpdateBody, isAdmin: boolean): TUserUpdateBody => {
  if (isAdmin) {
    return body;
  }
  const request = { ...body };
  for (const field of ADMIN_FIELDS) {
    delete request[field];
  }

  return request;
};
