import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors';
import { remoteSession, serveCall, type TChannelCall, type TChannelReply } from './remote-session';
import type { TChannelSession } from './types';

/** a session of the owning node that records what it was asked */
const ownerSession = (calls: unknown[][]): TChannelSession =>
  ({
    connectionId: 7,
    provider: 'sandbox',
    sendText: async (...args: unknown[]) => {
      calls.push(args);
      return { externalId: 'ext-1', ack: 1 };
    },
    sendMedia: async (...args: unknown[]) => {
      calls.push(args);
      return { externalId: 'ext-2', ack: 1 };
    },
    deleteMessage: async () => {
      throw new AppError('ERR_DELETE_WAPP_MSG', 'too old');
    },
    checkNumber: async () => null,
  }) as unknown as TChannelSession;

/** two nodes on an in-process bus: the caller's proxy and the owner's served session */
const cluster = (owned: TChannelSession | undefined) => {
  const request = async (call: Omit<TChannelCall, 'from'>): Promise<TChannelReply[]> => {
    // through JSON, as over Redis (Buffers become {type, data})
    const wire = JSON.parse(JSON.stringify({ ...call, from: 'node-b' })) as TChannelCall;
    const reply = await serveCall(wire, (id) => (id === 7 ? owned : undefined));
    return [null, JSON.parse(JSON.stringify(reply))];
  };
  return remoteSession(7, request);
};

describe('sessions held by another node', () => {
  it('runs the call on the owner with its arguments (Buffers revived) and answers its result', async () => {
    const calls: unknown[][] = [];
    const session = cluster(ownerSession(calls));
    expect(await session.sendText('5511', 'olá', { quotedExternalId: 'q1' })).toEqual({ externalId: 'ext-1', ack: 1 });
    const data = Buffer.from('%PDF-1.4 bytes');
    expect(await session.sendMedia('5511', { data, mimetype: 'application/pdf', fileName: 'a.pdf' })).toEqual({
      externalId: 'ext-2',
      ack: 1,
    });
    expect(calls[0]).toEqual(['5511', 'olá', { quotedExternalId: 'q1' }]);
    const media = calls[1][1] as { data: Buffer };
    expect(Buffer.isBuffer(media.data)).toBe(true);
    expect(media.data.equals(data)).toBe(true);
    expect(await session.checkNumber('5511')).toBeNull();
  });

  it("answers the owner's catalogue error, and ERR_WAPP_NOT_INITIALIZED when no node holds the session", async () => {
    await expect(cluster(ownerSession([])).deleteMessage('5511', 'x', { fromMe: true })).rejects.toMatchObject({
      code: 'ERR_DELETE_WAPP_MSG',
      message: 'too old',
    });
    await expect(cluster(undefined).sendText('5511', 'olá')).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    const silent = remoteSession(7, async () => {
      throw new Error('timeout reached: only 0 responses received out of 1');
    });
    await expect(silent.sendText('5511', 'olá')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await expect(silent.start()).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });
});
