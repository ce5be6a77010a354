import type { TBaileysSocket } from './baileys.types';
import { toJid } from './jid';

/**
 * Group subjects (the group contact's name), asked of WhatsApp once an hour per group: concurrent
 * messages share the question, a message never waits more than `waitMs` for it, and a failed question is
 * asked again by the next message (the last name known, if any, answers meanwhile).
 */
export const createGroupNames = (
  socket: () => TBaileysSocket | undefined,
  opts: { ttlMs?: number; waitMs?: number } = {},
) => {
  const ttlMs = opts.ttlMs ?? 60 * 60 * 1000;
  const waitMs = opts.waitMs ?? 3000;
  const names = new Map<string, { name: Promise<string | undefined>; at: number }>();

  return (groupId: string): Promise<string | undefined> => {
    const cached = names.get(groupId);
    if (cached && Date.now() - cached.at < ttlMs) return cached.name;
    const sock = socket();
    if (!sock?.groupMetadata) return cached?.name ?? Promise.resolve(undefined);
    const ask = (jid: string) => sock.groupMetadata!(jid);
    const name = (async () => {
      let timer: NodeJS.Timeout | undefined;
      const subject = await Promise.race([
        ask(toJid(groupId, true)).then(
          (meta) => meta.subject || undefined,
          () => undefined,
        ),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), waitMs);
        }),
      ]);
      clearTimeout(timer);
      if (subject === undefined) names.delete(groupId);

      return subject ?? (await cached?.name);
    })();
    names.set(groupId, { name, at: Date.now() });

    return name;
  };
};
