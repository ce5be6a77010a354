import { createInterface } from 'node:readline';
import { openPostgres } from '../src/db/client';
import { assignRound } from '../src/modules/assignment/assigner';

/**
 * One "node" of test/assignment-two-nodes.test.ts: its own process and connection pool on the test's
 * PostgreSQL database, running the assigner's rounds (`assignRound`, the very transaction the server runs)
 * for one company each time it reads `go` on stdin, until a round assigns nothing; it prints every
 * assignment it committed as a JSON line, then `idle`. `exit` ends it.
 */
const url = process.env.DATABASE_URL!;
const companyId = Number(process.env.COMPANY_ID);
const batch = Number(process.env.BATCH ?? 1);
const database = await openPostgres(url, 4);
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

let work = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  work = work.then(async () => {
    if (line === 'exit') {
      await database.close();
      process.exit(0);
    }
    if (line !== 'go') return;
    for (;;) {
      const { assigned } = await assignRound(database.db, companyId, new Date(), batch);
      for (const a of assigned) print({ ticketId: a.ticketId, userId: a.userId, queueId: a.queueId });
      if (assigned.length === 0) break;
    }
    print('idle');
  });
});
print('ready');
