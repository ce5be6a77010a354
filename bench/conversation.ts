import type { TGeneratedCompany } from './generate';
import type { TInboxLatency, TInboxOptions, TInboxResult, TWriter } from './inbox';
import { closedLoop, json, request } from './lib';

/**
 * The conversation page: `GET /api/messages/:ticketId` page 1 of the generated 200-message tickets (each the
 * first ticket of a contact whose history spans several tickets), 20 closed-loop clients, no writes: the
 * admin, and agents who see the ticket through its queue without attending it (so reading marks nothing).
 * Then the admin's again while the company's customers write the busiest rate (each message a change that
 * makes the kept answers stale, so this one shows what the statement costs).
 */
export const conversationLoads = async (
  database: TInboxResult['database'],
  url: string,
  tokens: { admin: string; agents: { token: string; queueIds: number[] }[] },
  opts: TInboxOptions,
  company: TGeneratedCompany,
  writer: TWriter,
  /** the server process's CPU time so far, ms */
  serverCpu: () => number,
): Promise<TInboxLatency[]> => {
  const ids = company.longTicketIds;
  if (!ids.length) return [];
  const tickets = await Promise.all(
    ids.map(async (id) => {
      const page = await json(url, { method: 'GET', path: `/api/messages/${id}`, token: tokens.admin });
      const ticket = page.ticket as { queueId: number | null; userId: number | null };

      return { id, count: page.count as number, queueId: ticket.queueId, userId: ticket.userId };
    }),
  );
  const history = tickets.map((t) => t.count).join('/');
  // for each ticket in a queue, the agents of that queue (none of them its attendant: reading changes nothing)
  const readers = tickets.flatMap((t) =>
    company.agents
      .map((a, i) => ({ ...a, token: tokens.agents[i].token }))
      .filter((a) => t.queueId !== null && a.queueIds.includes(t.queueId) && a.id !== t.userId)
      .map((a) => ({ ticketId: t.id, token: a.token })),
  );
  const results: TInboxLatency[] = [];
  const run = async (what: string, pick: (client: number) => { ticketId: number; token: string }, writing?: number) => {
    const load = writing ? `closed loop, ${writing} msg/s arriving` : 'closed loop';
    console.log(`  ${database}: ${what}, ${opts.concurrency} clients, ${load}, ${opts.seconds} s`);
    const writes = writing ? writer(writing) : undefined;
    // CPU over the measured seconds only (the warm-up takes the JIT's compiling)
    let sent = 0;
    let warm = { cpu: serverCpu(), sent: 0 };
    const warmed = setTimeout(() => {
      warm = { cpu: serverCpu(), sent };
    }, opts.warmupSeconds * 1000);
    const r = await closedLoop({
      clients: opts.concurrency,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
      maxRequests: 500_000,
      send: async (client, keepAlive) => {
        const { ticketId, token } = pick(client);
        sent++;

        return (
          await request(url, {
            method: 'GET',
            path: `/api/messages/${ticketId}`,
            token,
            agent: keepAlive,
            discardBody: true,
          })
        ).status;
      },
    });
    clearTimeout(warmed);
    const serverCpuMs = (serverCpu() - warm.cpu) / (sent - warm.sent);
    await writes;
    results.push({ database, what, load, clients: opts.concurrency, ...r, p95TargetMs: 15, serverCpuMs });
  };
  const shape = `${ids.length} tickets of 200 messages, contact histories of ${history}`;
  const admin = (c: number) => ({ ticketId: ids[c % ids.length], token: tokens.admin });
  await run(`admin: page 1, ${shape}`, admin);
  if (readers.length) {
    await run(`agent (non-admin, in the ticket's queue): page 1, ${readers.length} agent/ticket pairs`, (c) => {
      return readers[c % readers.length];
    });
  }
  await run(`admin: page 1, ${shape}`, admin, Math.max(...opts.listWritingRates));

  return results;
};
