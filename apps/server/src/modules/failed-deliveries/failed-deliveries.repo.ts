import { and, eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';

/** the names of the company's connections, by id */
export const connectionNames = async (db: TDb, companyId: number, ids: number[]) =>
  new Map(
    ids.length === 0
      ? []
      : (
          await db
            .select({ id: whatsapps.id, name: whatsapps.name })
            .from(whatsapps)
            .where(and(eq(whatsapps.companyId, companyId), inArray(whatsapps.id, ids)))
        ).map((r) => [r.id, r.name]),
  );
