import type { TBaileysKit, TBaileysSocket, TWAMessage } from './baileys.types';

type TBaileysModule = typeof import('@whiskeysockets/baileys');

/**
 * Baileys is CommonJS: under Node's ESM loader (the bundled server) only the exports its lexer detects
 * are named ones, and `proto` is not among them, so everything is read from `module.exports` (the
 * `default` export there; under Vitest the namespace itself carries them).
 */
export const baileysModule = async (): Promise<TBaileysModule> => {
  const ns = (await import('@whiskeysockets/baileys')) as TBaileysModule & { default?: unknown };
  const cjs = ns.default as Partial<TBaileysModule> | undefined;

  return cjs && typeof cjs === 'object' && cjs.proto ? (cjs as TBaileysModule) : ns;
};

/**
 * The real library, imported when the first Baileys session starts (a server without Baileys connections
 * never loads it). Sessions never print QR codes, never mark themselves online, never echo their own
 * sends, and skip the full history sync: messages that arrive live, or that WhatsApp held while the
 * session was away, become tickets; old history does not.
 */
export const loadBaileysKit = async (): Promise<TBaileysKit> => {
  const baileys = await baileysModule();
  const makeWASocket = baileys.makeWASocket;

  return {
    makeSocket: ({ auth, logger, connectTimeoutMs, qrTimeoutMs }) =>
      makeWASocket({
        auth: {
          creds: auth.creds as never,
          keys: baileys.makeCacheableSignalKeyStore(auth.keys as never, logger as never),
        },
        logger: logger as never,
        printQRInTerminal: false,
        browser: baileys.Browsers.ubuntu('Zelo'),
        connectTimeoutMs,
        qrTimeout: qrTimeoutMs,
        markOnlineOnConnect: false,
        // what we send is recorded at send time: no echo of it as an 'append' upsert
        emitOwnEvents: false,
        syncFullHistory: false,
        generateHighQualityLinkPreview: false,
        getMessage: async () => undefined,
      }) as unknown as TBaileysSocket,
    downloadMedia: async (message: TWAMessage, socket: TBaileysSocket) =>
      (await baileys.downloadMediaMessage(
        message as never,
        'buffer',
        {},
        {
          logger: undefined as never,
          // an expired media link is asked again from the phone
          reuploadRequest: (socket as unknown as Pick<import('@whiskeysockets/baileys').WASocket, 'updateMediaMessage'>)
            .updateMediaMessage,
        },
      )) as Buffer,
    initAuthCreds: () => baileys.initAuthCreds() as unknown as Record<string, unknown>,
    BufferJSON: baileys.BufferJSON,
    appStateSyncKey: (value) => baileys.proto.Message.AppStateSyncKeyData.fromObject(value as never),
  };
};
