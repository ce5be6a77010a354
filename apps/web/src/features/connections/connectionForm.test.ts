import { CHANNEL_SECRET_MASK, type TConnection } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import {
  CLOUD_FIELDS,
  formFieldOfPath,
  isAcceptableToken,
  isMaskedSecret,
  maskedEnding,
  PROVIDER_FIELDS,
  partlyEditedSecrets,
  type TConnectionFormValues,
  toConnectionFormValues,
  toConnectionRequest,
  webhookUrl,
  ZConnectionForm,
} from './connectionForm';
import { codeOfAnswer, normalizePairingCode } from './pairingCode';
import { sessionActions } from './sessionActionList';

const masked = (ending: string) => `${CHANNEL_SECRET_MASK}${ending}`;

const saved = (over: Partial<TConnection> = {}): TConnection => ({
  id: 7,
  name: 'Loja',
  status: 'CONNECTED',
  provider: 'cloud-api',
  isDefault: true,
  qrcode: '',
  retries: 0,
  lastError: null,
  phoneNumber: '',
  updatedAt: '2026-01-01T00:00:00.000Z',
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  expiresInactiveMessage: '',
  expiresTicket: 0,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  transferQueueId: null,
  timeToTransfer: 0,
  closeOpenChatsAfterMinutes: 0,
  promptId: null,
  integrationId: null,
  flowIdWelcome: null,
  flowIdNotPhrase: null,
  token: null,
  channelConfig: {
    phoneNumberId: '1234567890',
    businessAccountId: '9876543210',
    accessToken: masked('tokn'),
    appSecret: masked('scrt'),
    verifyToken: masked('vrfy'),
    graphUrl: 'https://graph.facebook.com',
    graphVersion: 'v21.0',
  },
  queues: [],
  queueIds: [],
  ...over,
});

const cloudValues = (over: Partial<TConnectionFormValues['channelConfig']> = {}): TConnectionFormValues => {
  const values = toConnectionFormValues(null);

  return {
    ...values,
    name: 'Loja',
    provider: 'cloud-api',
    channelConfig: {
      ...values.channelConfig,
      phoneNumberId: '1234567890',
      businessAccountId: '9876543210',
      accessToken: 'EAAG-real-token',
      appSecret: 'app-secret',
      verifyToken: 'verify-me',
      ...over,
    },
  };
};

const issuesOf = (values: unknown) => {
  const parsed = ZConnectionForm.safeParse(values);

  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('connection form: fields per provider', () => {
  it('should ask the Cloud API settings only of a Cloud API connection', () => {
    expect(PROVIDER_FIELDS.sandbox).toEqual([]);
    expect(PROVIDER_FIELDS.baileys).toEqual([]);
    expect(PROVIDER_FIELDS['cloud-api']).toEqual([
      'phoneNumberId',
      'businessAccountId',
      'accessToken',
      'appSecret',
      'verifyToken',
      'graphUrl',
      'graphVersion',
    ]);
  });

  it('should start a new connection as a sandbox one with Meta’s Graph defaults ready', () => {
    const values = toConnectionFormValues(null);
    expect(values.provider).toBe('sandbox');
    expect(values.channelConfig).toMatchObject({ graphUrl: 'https://graph.facebook.com', graphVersion: 'v21.0' });
    expect(values.channelConfig.accessToken).toBe('');
  });

  it('should read a saved Cloud API connection with its secrets still masked', () => {
    const values = toConnectionFormValues(saved());
    expect(values.channelConfig.accessToken).toBe(masked('tokn'));
    expect(isMaskedSecret(values.channelConfig.accessToken)).toBe(true);
    expect(maskedEnding(values.channelConfig.accessToken)).toBe('tokn');
    expect(maskedEnding('plain')).toBe('');
    // a short secret is answered as the bare mask: still a saved one, with no ending to show
    expect(isMaskedSecret(CHANNEL_SECRET_MASK)).toBe(true);
    expect(maskedEnding(CHANNEL_SECRET_MASK)).toBe('');
  });

  it('should not check Cloud API settings of sandbox and Baileys connections', () => {
    const values = { ...toConnectionFormValues(null), name: 'Loja', provider: 'baileys' };
    expect(issuesOf(values)).toEqual([]);
    expect(issuesOf({ ...values, provider: 'sandbox' })).toEqual([]);
  });

  it('should report empty and invalid Cloud API fields together with the others', () => {
    const values = cloudValues({ phoneNumberId: '', businessAccountId: '12ab', accessToken: ' ', graphVersion: '21' });
    expect(issuesOf({ ...values, name: '' })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name:/),
        'channelConfig.phoneNumberId:invalid',
        'channelConfig.businessAccountId:invalid',
        'channelConfig.accessToken:required',
        'channelConfig.graphVersion:invalid',
      ]),
    );
    expect(issuesOf(cloudValues({ graphUrl: 'not a url' }))).toEqual(['channelConfig.graphUrl:invalid']);
    expect(issuesOf(cloudValues())).toEqual([]);
  });
});

describe('connection form: the request body', () => {
  it('should send the typed Cloud API settings, trimmed, on create', () => {
    const body = ZConnectionForm.parse(cloudValues({ phoneNumberId: ' 1234567890 ' }));
    expect(toConnectionRequest(body, null)).toMatchObject({
      provider: 'cloud-api',
      token: null,
      channelConfig: {
        phoneNumberId: '1234567890',
        businessAccountId: '9876543210',
        accessToken: 'EAAG-real-token',
        appSecret: 'app-secret',
        verifyToken: 'verify-me',
        graphUrl: 'https://graph.facebook.com',
        graphVersion: 'v21.0',
      },
    });
  });

  it('should send masked secrets back untouched, meaning unchanged, and a retyped one as typed', () => {
    const original = saved();
    const values = toConnectionFormValues(original);
    values.channelConfig.appSecret = 'new-app-secret';
    const request = toConnectionRequest(ZConnectionForm.parse(values), original);
    expect(request).toMatchObject({
      channelConfig: {
        accessToken: masked('tokn'),
        appSecret: 'new-app-secret',
        verifyToken: masked('vrfy'),
        phoneNumberId: '1234567890',
      },
    });
    expect(partlyEditedSecrets(values.channelConfig, original)).toEqual([]);
  });

  it('should refuse a masked secret that was only partly edited', () => {
    const original = saved();
    const values = toConnectionFormValues(original);
    values.channelConfig.accessToken = `${masked('tokn')}x`;
    values.channelConfig.verifyToken = masked('vrf');
    expect(partlyEditedSecrets(values.channelConfig, original)).toEqual(['accessToken', 'verifyToken']);
    // a new connection has nothing masked to keep
    expect(partlyEditedSecrets({ accessToken: masked('abcd') }, null)).toEqual(['accessToken']);
  });

  it('should send no provider settings for sandbox and Baileys', () => {
    const values = { ...toConnectionFormValues(null), name: 'Loja', provider: 'baileys' as const };
    // typed Cloud API fields of a provider the user moved away from are dropped
    values.channelConfig.accessToken = 'typed-before-switching';
    expect(toConnectionRequest(ZConnectionForm.parse(values), null)).toMatchObject({ channelConfig: {} });
    // an update leaves the stored settings alone
    const baileys = saved({ provider: 'baileys', channelConfig: {} });
    const request = toConnectionRequest(ZConnectionForm.parse(toConnectionFormValues(baileys)), baileys);
    expect('channelConfig' in request).toBe(false);
  });

  it('should clear the Cloud API secrets when a connection leaves the Cloud API', () => {
    const original = saved();
    const values = { ...toConnectionFormValues(original), provider: 'sandbox' as const };
    expect(toConnectionRequest(ZConnectionForm.parse(values), original)).toMatchObject({
      provider: 'sandbox',
      channelConfig: {},
    });
  });
});

describe('connection form: webhook and server errors', () => {
  it('should build the webhook URL from the page origin and the connection id', () => {
    expect(webhookUrl('https://zelo.example.com', 42)).toBe(
      'https://zelo.example.com/api/channels/cloud-api/42/webhook',
    );
    expect(webhookUrl('http://127.0.0.1:3000/', 1)).toBe('http://127.0.0.1:3000/api/channels/cloud-api/1/webhook');
  });

  it('should put a server error about a Cloud API setting on its field', () => {
    expect(formFieldOfPath('channelConfig.accessToken')).toBe('channelConfig.accessToken');
    expect(formFieldOfPath('phoneNumberId')).toBe('channelConfig.phoneNumberId');
    expect(formFieldOfPath('/channelConfig/graphUrl')).toBe('channelConfig.graphUrl');
    expect(formFieldOfPath('name')).toBe('name');
    expect(CLOUD_FIELDS).toHaveLength(7);
  });
});

describe('session actions per provider', () => {
  it('should offer QR actions to the QR transports and a phone-number pairing to Baileys', () => {
    expect(sessionActions('sandbox', 'qrcode')).toEqual(['qr']);
    expect(sessionActions('baileys', 'qrcode')).toEqual(['qr', 'pairPhone']);
    expect(sessionActions('sandbox', 'DISCONNECTED')).toEqual(['retry', 'newqr']);
    expect(sessionActions('baileys', 'DISCONNECTED')).toEqual(['retry', 'newqr', 'pairPhone']);
    expect(sessionActions('baileys', 'PAIRING')).toEqual(['showCode', 'disconnect']);
    expect(sessionActions('sandbox', 'OPENING')).toEqual(['connecting']);
  });

  it('should never offer a QR to the Cloud API, but a check of the connection', () => {
    for (const status of ['qrcode', 'DISCONNECTED', 'TIMEOUT', 'PAIRING', 'CONNECTED', 'OPENING'] as const) {
      const actions = sessionActions('cloud-api', status);
      expect(actions).not.toContain('qr');
      expect(actions).not.toContain('newqr');
      expect(actions).not.toContain('pairPhone');
    }
    expect(sessionActions('cloud-api', 'DISCONNECTED')).toEqual(['check']);
    expect(sessionActions('cloud-api', 'CONNECTED')).toEqual(['check', 'disconnect']);
    expect(sessionActions('cloud-api', 'OPENING')).toEqual(['connecting']);
  });
});

describe('pairing code', () => {
  it('should show the code as WhatsApp gives it, whatever the answer calls it', () => {
    expect(normalizePairingCode('k7qp-2m9x')).toBe('K7QP2M9X');
    expect(normalizePairingCode(undefined)).toBe('');
    expect(codeOfAnswer({ code: 'K7QP-2M9X' })).toBe('K7QP2M9X');
    expect(codeOfAnswer({ pairingCode: 'ab12cd34' })).toBe('AB12CD34');
    // the connection itself while PAIRING carries it in qrcode; a QR string of another status is no code
    expect(codeOfAnswer({ status: 'PAIRING', qrcode: 'ZZZZ1111' })).toBe('ZZZZ1111');
    expect(codeOfAnswer({ status: 'qrcode', qrcode: '2@abc,def' })).toBe('');
    expect(codeOfAnswer({ message: 'ok' })).toBe('');
    expect(codeOfAnswer(null)).toBe('');
  });
});

describe('the API token field', () => {
  it('takes empty, the token the server sent (masked or whole) or a strong new one; never a weak new one', () => {
    const original = saved({ token: '********wxyz' });
    expect(isAcceptableToken('', original)).toBe(true);
    expect(isAcceptableToken('********wxyz', original)).toBe(true);
    // an old weak token the admin's editor shows in full is kept as it is
    expect(isAcceptableToken('7', saved({ token: '7' }))).toBe(true);
    expect(isAcceptableToken('7', original)).toBe(false);
    expect(isAcceptableToken('short-token', null)).toBe(false);
    expect(isAcceptableToken('tok-0f3a9c1e2b7d4865a1c3e5f7092b4d6e', null)).toBe(true);
  });
});
