import { describe, expect, it } from 'vitest';
import type { TWAMessage } from '../../channels/baileys/baileys.types';
import { mapInbound } from '../../channels/baileys/map-inbound';
import type { TInboundMessage, TMedia } from '../../channels/types';
import { deserializeInbound, serializeInbound } from './payload';

const base: TInboundMessage = {
  connectionId: 7,
  externalId: 'E1',
  from: '5511988887777',
  fromMe: false,
  pushName: 'Maria',
  isGroup: false,
  type: 'text',
  body: 'olá',
  timestamp: new Date('2026-01-02T03:04:05.000Z'),
};

const noRestore = () => undefined;

describe('a stored inbound message', () => {
  it('comes back as it was handed over, downloaded media included', async () => {
    const data = Buffer.from([0, 1, 2, 250]);
    const message = { ...base, type: 'image' as const, media: { data, mimetype: 'image/png', fileName: 'a.png' } };
    const back = deserializeInbound(serializeInbound(message), noRestore);
    expect(back).toEqual(message);
  });

  it('media still to download is downloaded again from the raw message kept with it', async () => {
    const mediaKey = new Uint8Array([9, 8, 7, 6]);
    const raw: TWAMessage = {
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IMG1' },
      message: { imageMessage: { mimetype: 'image/jpeg', caption: 'foto', mediaKey } },
      messageTimestamp: 1_700_000_000,
    };
    // what the driver would fetch: here, the key the stored message still carries
    const download = (m: TWAMessage, mimetype: string, fileName?: string) => async (): Promise<TMedia> => ({
      data: Buffer.from((m.message as { imageMessage: { mediaKey: Uint8Array } }).imageMessage.mediaKey),
      mimetype,
      fileName,
    });
    const mapped = mapInbound(raw, { connectionId: 7, download });
    if (mapped?.kind !== 'message') throw new Error('not mapped');
    const stored = serializeInbound(mapped.message);
    expect(typeof mapped.message.media).toBe('function');

    const restored = deserializeInbound(stored, (connectionId, keptRaw) => {
      expect(connectionId).toBe(7);
      const again = mapInbound(keptRaw as TWAMessage, { connectionId, download });
      return again?.kind === 'message' ? again.message.media : undefined;
    });
    expect(restored.body).toBe('foto');
    const media = await (restored.media as () => Promise<TMedia>)();
    expect(media).toEqual({ data: Buffer.from([9, 8, 7, 6]), mimetype: 'image/jpeg', fileName: undefined });

    // without a session to download it, the pipeline gets the download error it records on the message
    const orphan = deserializeInbound(stored, noRestore);
    await expect((orphan.media as () => Promise<TMedia>)()).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
  });
});
