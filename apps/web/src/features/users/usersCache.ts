import type { InfiniteData } from '@tanstack/react-query';
import type { TUser } from '@zelo/shared';

export type TUsersPage = { users: TUser[]; hasMore: boolean; count: number };
export type TUsersData = InfiniteData<TUsersPage>;

/** Replaces the user where it is listed; a user not listed yet goes to the top of the first page. */
export const upsertUser = (data: TUsersData | undefined, user: TUser): TUsersData | undefined => {
  if (!data) {
    return data;
  }
  const isListed = data.pages.some((page) => page.users.some((u) => u.id === user.id));
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
