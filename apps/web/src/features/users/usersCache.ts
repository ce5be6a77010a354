import type { InfiniteData } from '@tanstack/react-query';
import type { TUser } from '@zelo/shared';

export type TUsersPage = { users: TUser[]; hasMore: boolean; count: number };
export type TUsersData = InfiniteData<TUsersPage>;

/** Whether a user belongs in a list searched with this text (by name or e-mail, ignoring case). */
export const matchesUserSearch = (user: TUser, searchParam: string) => {
  const search = searchParam.trim().toLowerCase();

  return !search || user.name.toLowerCase().includes(search) || user.email.toLowerCase().includes(search);
};

/**
 * Replaces the user where it is listed; a user not listed yet goes to the top of the first page when it
 * matches the list's search.
 */
export const upsertUser = (data: TUsersData | undefined, user: TUser, searchParam = ''): TUsersData | undefined => {
  if (!data) {
    return data;
  }
  const isListed = data.pages.some((page) => page.users.some((u) => u.id === user.id));
  if (!isListed && !matchesUserSearch(user, searchParam)) {
    return data;
  }
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        users: page.users.map((u) => (u.id === user.id ? user : u)),
      })),
    };
  }

  return {
    ...data,
    pages: data.pages.map((page, index) =>
      index === 0 ? { ...page, users: [user, ...page.users], count: page.count + 1 } : page,
    ),
  };
};

export const removeUser = (data: TUsersData | undefined, userId: number): TUsersData | undefined => {
  if (!data) {
    return data;
  }

  return {
    ...data,
    pages: data.pages.map((page) => {
      const users = page.users.filter((u) => u.id !== userId);

      return users.length === page.users.length ? page : { ...page, users, count: Math.max(0, page.count - 1) };
    }),
  };
};

export const flattenUsers = (data: TUsersData | undefined): TUser[] => data?.pages.flatMap((page) => page.users) ?? [];
