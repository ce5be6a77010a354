import { useQueryClient } from '@tanstack/react-query';
import { events, type TUser } from '@zelo/shared';
import { useCallback } from 'react';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { upsertUserInLists } from './upsertUserInLists';
import { removeUser, type TUsersData } from './usersCache';
import { USERS_QUERY_KEY } from './useUsers';

type TUserEvent = { action: 'create' | 'update'; user: TUser } | { action: 'delete'; userId: number };

/** Keeps every loaded users list in step with `company-{id}-user` events. */
export const useUserEvents = () => {
  const { user } = useAuth();
  const queryClient = useQueryClient();

  const onEvent = useCallback(
    (data: TUserEvent) => {
      if (data.action === 'delete') {
        queryClient.setQueriesData<TUsersData>({ queryKey: USERS_QUERY_KEY }, (old) => removeUser(old, data.userId));

        return;
      }
      if (data.action === 'create' || data.action === 'update') {
        upsertUserInLists(queryClient, data.user);
      }
    },
    [queryClient],
  );

  useSocketEvent(user ? events.user(user.companyId) : '', onEvent);
};
