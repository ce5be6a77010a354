import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { removeUser, type TUsersData } from './usersCache';
import { USERS_QUERY_KEY } from './useUsers';

export const useDeleteUser = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (userId: number) => api.delete(`/users/${userId}`),
    onSuccess: (_answer, userId) => {
      queryClient.setQueriesData<TUsersData>({ queryKey: USERS_QUERY_KEY }, (old) => removeUser(old, userId));
    },
  });
};
