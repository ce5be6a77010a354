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

const quiet = () => undefined;
const QUIET: Record<string, unknown> = {
  level: 'silent',
  info: quiet,
  warn: quiet,
  error: quiet,
  debug: quiet,
  trace: quiet,
};
QUIET.child = () => QUIET;

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
    makeSocket: ({ auth, logger, connectTimeoutMs, qrTimeoutMs, getMessage }) =>
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
        // a recipient's device that could not decrypt a message asks for it again: answered from the
        // session's recent messages (else it stays "waiting for this message" on the customer's phone)
        getMessage: getMessage as never,
      }) as unknown as TBaileysSocket,
    downloadMedia: async (message: TWAMessage, socket: TBaileysSocket, logger?: unknown) => {
      const { updateMediaMessage } = socket as unknown as Pick<
        import('@whiskeysockets/baileys').WASocket,
        'updateMediaMessage'
      >;

      return (await baileys.downloadMediaMessage(
        message as never,
        'buffer',
        {},
        {
          // Baileys logs through it before asking again (it must be a logger, never undefined)
          logger: (logger ?? QUIET) as never,
          // an expired media link (404/410) is asked again from the phone
          reuploadRequest: (m) => updateMediaMessage(m),
        },
      )) as Buffer;
    },
    initAuthCreds: () => baileys.initAuthCreds() as unknown as Record<string, unknown>,
    BufferJSON: baileys.BufferJSON,
    appStateSyncKey: (value) => baileys.proto.Message.AppStateSyncKeyData.fromObject(value as never),
  };
};
