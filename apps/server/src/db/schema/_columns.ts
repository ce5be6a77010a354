import { customType, timestamp } from 'drizzle-orm/pg-core';

/** `createdAt` / `updatedAt` for every table (timestamptz). */
export const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const tsz = () => timestamp({ withTimezone: true });

/** `tsvector`: written with SQL (`to_tsvector`), never read into the application */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});
