import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { companyRef } from './_tenant';
import { users } from './core';

/** internal chat between users of a company */
export const chats = pgTable(
  'chats',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    uuid: uuid().notNull().defaultRandom(),
    title: varchar({ length: 100 }).notNull(),
    ownerId: integer().references(() => users.id, { onDelete: 'set null' }),
    lastMessage: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('chats_uuid_unique').on(t.uuid), index('chats_company_updated_idx').on(t.companyId, t.updatedAt)],
);

export const chatUsers = pgTable(
  'chat_users',
  {
    companyId: companyRef(),
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unreads: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index('chat_users_user_idx').on(t.userId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    chatId: integer()
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer().references(() => users.id, { onDelete: 'set null' }),
    message: text().notNull().default(''),
    mediaPath: varchar({ length: 255 }),
    mediaName: varchar({ length: 255 }),
    ...timestamps,
  },
  (t) => [
    index('chat_messages_chat_created_idx').on(t.chatId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
