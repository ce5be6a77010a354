import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TUser, TUserUpdateBody } from '@zelo/shared';
import { api } from '../../api/http';
import { upsertUserInLists } from './upsertUserInLists';

type TSaveUserVariables = { id: number | null; body: TUserUpdateBody };

/** POST /users or PUT /users/:id; the saved user goes straight into the loaded lists. */
export const useSaveUser = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ id, body }: TSaveUserVariables) =>
      id === null ? api.post<TUser>('/users', body) : api.put<TUser>(`/users/${id}`, body),
    onSuccess: (user) => {
      if (user && typeof user === 'object' && 'id' in user) {
        upsertUserInLists(queryClient, user);
      }
    },
  });
};
