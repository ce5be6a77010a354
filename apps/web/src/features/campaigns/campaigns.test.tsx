import { QueryClient } from '@tanstack/react-query';
import {
  type TCampaign,
  type TCampaignCounts,
  type TCampaignRecipient,
  type TCampaignReport,
  ZCampaignBody,
} from '@zelo/shared';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; body?: unknown }[] = [];
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  const record = (method: string) => async (url: string, body?: unknown) => {
    calls.push({ method, url, body });
    return { id: Number(/\/campaigns\/(\d+)/.exec(url)?.[1] ?? 7), status: 'INATIVA', step: method };
  };

  return {
    ...actual,
    api: {
      get: record('GET'),
      post: record('POST'),
      put: record('PUT'),
      delete: record('DELETE'),
      upload: record('UPLOAD'),
    },
  };
});

beforeAll(() => stubLocalStorage([['i18nextLng', 'pt']]));
beforeEach(() => {
  calls.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const at = (ms: number) => new Date(NOW + ms).toISOString();

const campaign = (fields: Partial<TCampaign> = {}): TCampaign => ({
  id: 1,
  name: 'Black Friday',
  message1: 'Olá {nome}',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  status: 'INATIVA',
  scheduledAt: null,
  completedAt: null,
  whatsappId: 3,
  contactListId: 4,
  tagId: null,
  tagListId: null,
  fileListId: null,
  mediaPath: null,
  mediaName: null,
  companyId: 1,
  whatsapp: { id: 3, name: 'Loja' },
  contactList: { id: 4, name: 'Clientes VIP' },
  tag: null,
  fileList: null,
  editable: true,
  createdAt: at(-HOUR),
  updatedAt: at(-HOUR),
  ...fields,
});

const counts = (fields: Partial<TCampaignCounts> = {}): TCampaignCounts => ({
  valid: 4,
  queued: 1,
  sent: 2,
  delivered: 1,
  read: 1,
  failed: 1,
  atLeastOnce: 0,
  ...fields,
});

const recipient = (fields: Partial<TCampaignRecipient> = {}): TCampaignRecipient => ({
  id: 1,
  number: '5511900000001',
  name: 'Bia',
  state: 'queued',
  scheduledFor: at(HOUR),
  time: null,
  ack: null,
  error: null,
  atLeastOnce: false,
  ...fields,
});

describe('campaign rules (spec 2 §4)', { timeout: 90_000 }, () => {
  it('edits INATIVA, or PROGRAMADA more than an hour ahead; otherwise read-only with the reason', async () => {
    const { campaignEditability } = await import('./campaignLogic');
    expect(campaignEditability(null, NOW)).toEqual({ editable: true, canSave: true, reason: null });
    expect(campaignEditability(campaign(), NOW).editable).toBe(true);
    expect(campaignEditability(campaign({ status: 'PROGRAMADA', scheduledAt: at(HOUR + 60_000) }), NOW)).toEqual({
      editable: true,
      canSave: true,
      reason: null,
    });
    expect(campaignEditability(campaign({ status: 'PROGRAMADA', scheduledAt: at(HOUR) }), NOW)).toEqual({
      editable: false,
      canSave: false,
      reason: 'soon',
    });
    expect(campaignEditability(campaign({ status: 'PROGRAMADA', scheduledAt: at(30 * 60_000) }), NOW).reason).toBe(
      'soon',
    );
    expect(campaignEditability(campaign({ status: 'EM_ANDAMENTO' }), NOW)).toEqual({
      editable: false,
      canSave: false,
      reason: 'EM_ANDAMENTO',
    });
    expect(campaignEditability(campaign({ status: 'FINALIZADA' }), NOW).canSave).toBe(false);
    expect(campaignEditability(campaign({ status: 'CANCELADA' }), NOW)).toEqual({
      editable: false,
      canSave: true,
      reason: 'CANCELADA',
    });
  });

  it('a cancelled campaign keeps only its messages open; a locked one nothing; an editable one everything', async () => {
    const { campaignEditability, fieldLocked } = await import('./campaignLogic');
    const cancelled = campaignEditability(campaign({ status: 'CANCELADA' }), NOW);
    expect(fieldLocked('message3', cancelled)).toBe(false);
    expect(fieldLocked('name', cancelled)).toBe(false);
    expect(fieldLocked('media', cancelled)).toBe(false);
    expect(fieldLocked('scheduledAt', cancelled)).toBe(true);
    expect(fieldLocked('whatsappId', cancelled)).toBe(true);
    const running = campaignEditability(campaign({ status: 'EM_ANDAMENTO' }), NOW);
    expect(fieldLocked('message1', running)).toBe(true);
    const inactive = campaignEditability(campaign(), NOW);
    expect(fieldLocked('scheduledAt', inactive)).toBe(false);
  });

  it('a cancelled campaign saves only its name and messages', async () => {
    const { bodyToSave, campaignEditability } = await import('./campaignLogic');
    const body = { name: 'N', message1: 'a', message5: 'e', whatsappId: 3, scheduledAt: null, tagListId: null };
    expect(bodyToSave(body, campaignEditability(campaign({ status: 'CANCELADA' }), NOW))).toEqual({
      name: 'N',
      message1: 'a',
      message5: 'e',
    });
    expect(bodyToSave(body, campaignEditability(campaign(), NOW))).toEqual(body);
  });

  it('offers cancel only while running and restart only when cancelled', async () => {
    const { canCancel, canRestart } = await import('./campaignLogic');
    const statuses = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
    expect(statuses.filter((status) => canCancel({ status }))).toEqual(['EM_ANDAMENTO']);
    expect(statuses.filter((status) => canRestart({ status }))).toEqual(['CANCELADA']);
  });
});

describe('campaign dialog values', { timeout: 90_000 }, () => {
  it('starts from the campaign (tag from tagId, start time in local input form) and parses as the server will', async () => {
    const { campaignFormValues } = await import('./CampaignDialog');
    const { toLocalInput, withInstant } = await import('./campaignLogic');
    const values = campaignFormValues(campaign({ tagId: 9, scheduledAt: at(2 * HOUR), contactListId: null }));
    expect(values).toMatchObject({ name: 'Black Friday', tagListId: 9, contactListId: '', whatsappId: 3 });
    expect(values.scheduledAt).toBe(toLocalInput(at(2 * HOUR)));
    const body = withInstant(ZCampaignBody.parse(values));
    // the local time the user saw is the instant sent
    expect(body.scheduledAt).toBe(at(2 * HOUR));
    expect(body).toMatchObject({ tagListId: 9, contactListId: null, fileListId: null, whatsappId: 3 });

    const empty = ZCampaignBody.parse({ ...campaignFormValues(null), name: 'Natal' });
    expect(empty).toMatchObject({ scheduledAt: null, whatsappId: null, contactListId: null, tagListId: null });
    expect(ZCampaignBody.safeParse(campaignFormValues(null)).success).toBe(false);
  });

  it('inserts a variable at the caret, replacing a selection', async () => {
    const { insertVariable } = await import('./campaignLogic');
    expect(insertVariable('Olá , tudo bem?', 'nome', 4)).toEqual({ text: 'Olá {nome}, tudo bem?', caret: 10 });
    expect(insertVariable('Olá XXX!', 'email', 4, 7)).toEqual({ text: 'Olá {email}!', caret: 11 });
    expect(insertVariable('Oi', 'numero')).toEqual({ text: 'Oi{numero}', caret: 10 });
  });

  it('lists {nome} {email} {numero} and then the company variables', async () => {
    const { messageVariables } = await import('./campaignLogic');
    const keys = messageVariables({
      variables: [
        { key: 'loja', value: 'Centro' },
        { key: 'nome', value: 'x' },
      ],
    }).map((v) => v.key);
    expect(keys).toEqual(['nome', 'email', 'numero', 'loja']);
    expect(messageVariables(undefined).map((v) => v.key)).toEqual(['nome', 'email', 'numero']);
  });

  it('shows the chosen file, else the stored one unless it is being removed', async () => {
    const { shownAttachment } = await import('../../components/MediaAttachment');
    const stored = campaign({ mediaPath: 'x/ab.png', mediaName: 'promo.png' });
    expect(shownAttachment(stored, { kind: 'keep' })).toBe('promo.png');
    expect(shownAttachment(stored, { kind: 'attach', file: new File(['x'], 'new.jpg') })).toBe('new.jpg');
    expect(shownAttachment(stored, { kind: 'remove' })).toBeNull();
    expect(shownAttachment(campaign(), { kind: 'keep' })).toBeNull();
  });
});

describe('campaign saves and events', { timeout: 90_000 }, () => {
  it('creates then uploads the attachment as `file`; edits and removes a stored one', async () => {
    const { saveCampaign } = await import('./useCampaigns');
    const created: number[] = [];
    const file = new File(['png'], 'promo.png', { type: 'image/png' });
    await saveCampaign(null, { name: 'Natal' }, { kind: 'attach', file }, false, (r) => created.push(r.id));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /campaigns', 'UPLOAD /campaigns/7/media-upload']);
    expect(((calls[1]?.body as FormData).get('file') as File).name).toBe('promo.png');
    expect(created).toEqual([7]);

    calls.length = 0;
    await saveCampaign(3, { name: 'Natal' }, { kind: 'remove' }, true);
    await saveCampaign(3, { name: 'Natal' }, { kind: 'remove' }, false);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /campaigns/3',
      'DELETE /campaigns/3/media-upload',
      'PUT /campaigns/3',
    ]);
  });

  it('cancels and restarts through their own paths', async () => {
    const { campaignAction } = await import('./useCampaigns');
    expect(await campaignAction(5, 'cancel')).toMatchObject({ id: 5 });
    await campaignAction(5, 'restart');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /campaigns/5/cancel', 'POST /campaigns/5/restart']);
  });

  it('reads the realtime events as list changes; progress only moves a listed row', async () => {
    const { applyProgress, campaignEventChange } = await import('./useCampaigns');
    const c = campaign();
    expect(campaignEventChange({ action: 'delete', id: 4 })).toEqual({ remove: 4 });
    expect(campaignEventChange({ action: 'update', record: c })).toEqual({ upsert: c });
    expect(campaignEventChange({ action: 'progress', campaignId: 1, status: 'EM_ANDAMENTO', counts: counts() })).toBe(
      null,
    );
    const data = { pages: [{ records: [c], hasMore: false }], pageParams: [1] };
    const moved = applyProgress(data, 1, 'EM_ANDAMENTO');
    expect((moved?.pages[0]?.records as TCampaign[])[0]?.status).toBe('EM_ANDAMENTO');
    expect(applyProgress(data, 2, 'EM_ANDAMENTO')).toBe(data);
  });

  it('reads select options from arrays and from {files}', async () => {
    const { optionsOf } = await import('./useCampaigns');
    expect(optionsOf([{ id: 1, name: 'A' }, { name: 'no id' }])).toEqual([{ id: 1, name: 'A' }]);
    expect(optionsOf({ files: [{ id: 2, name: 'Catálogo' }] }, 'files')).toEqual([{ id: 2, name: 'Catálogo' }]);
    expect(optionsOf({ error: 'x' })).toEqual([]);
  });
});

describe('campaign settings (spec 2 §5, §9)', { timeout: 90_000 }, () => {
  it('adds a variable only with a new, well-formed key; removes by key', async () => {
    const { addVariable, removeVariable, variableProblem } = await import('./campaignLogic');
    const list = [{ key: 'loja', value: 'Centro' }];
    expect(addVariable(list, { key: ' cupom ', value: 'BF10' })).toEqual([...list, { key: 'cupom', value: 'BF10' }]);
    expect(addVariable(list, { key: 'loja', value: 'Outra' })).toBe(list);
    expect(variableProblem(list, { key: 'loja', value: '' })).toBe('duplicateKey');
    expect(variableProblem(list, { key: 'two words', value: '' })).toBe('invalidKey');
    expect(variableProblem(list, { key: '{x}', value: '' })).toBe('invalidKey');
    expect(variableProblem(list, { key: '', value: '' })).toBe('invalidKey');
    expect(removeVariable(list, 'loja')).toEqual([]);
  });

  it('fills the spec defaults until settings are stored, and posts them wrapped as {settings}', async () => {
    const { saveCampaignSettings, settingsOrDefaults } = await import('./useCampaignSettings');
    expect(settingsOrDefaults(undefined)).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [],
    });
    expect(settingsOrDefaults({ messageInterval: 0 }).messageInterval).toBe(0);
    const settings = { messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 60, variables: [] };
    await saveCampaignSettings(settings);
    expect(calls).toEqual([{ method: 'POST', url: '/campaign-settings', body: { settings } }]);
  });
});

describe('campaign report', { timeout: 90_000 }, () => {
  it('a sent message reads as delivered at ack 3 and read at ack 4', async () => {
    const { recipientState, percentOf } = await import('./campaignLogic');
    expect(recipientState({ state: 'queued', ack: null })).toBe('queued');
    expect(recipientState({ state: 'sent', ack: 1 })).toBe('sent');
    expect(recipientState({ state: 'sent', ack: 3 })).toBe('delivered');
    expect(recipientState({ state: 'sent', ack: 4 })).toBe('read');
    expect(recipientState({ state: 'failed', ack: null })).toBe('failed');
    expect(percentOf(1, 4)).toBe(25);
    expect(percentOf(3, 0)).toBe(0);
  });

  it('events about the campaign win over the pages; others are ignored', async () => {
    const { liveFromEvent, reportView } = await import('./useCampaignReport');
    const page: TCampaignReport = {
      campaign: campaign({ status: 'EM_ANDAMENTO' }),
      counts: counts(),
      recipients: { records: [recipient()], count: 1, hasMore: false },
    };
    const data = { pages: [page], pageParams: [1] };
    expect(reportView(data, {}).counts?.sent).toBe(2);
    const progress = { action: 'progress', campaignId: 1, status: 'FINALIZADA', counts: counts({ sent: 4 }) } as const;
    const live = liveFromEvent({}, progress, 1);
    expect(live).not.toBeNull();
    const view = reportView(data, live ?? {});
    expect(view.counts?.sent).toBe(4);
    expect(view.campaign?.status).toBe('FINALIZADA');
    expect(view.rows).toHaveLength(1);
    expect(liveFromEvent({}, { ...progress, campaignId: 2 }, 1)).toBeNull();
    expect(liveFromEvent({}, { action: 'delete', id: 1 }, 1)).toBeNull();
  });

  it('an ack after the sends (the server tells the counts again) moves delivered and read and asks the rows again', async () => {
    vi.useFakeTimers();
    const { liveFromEvent, liveRefresher, reportView } = await import('./useCampaignReport');
    const page: TCampaignReport = {
      campaign: campaign({ status: 'FINALIZADA' }),
      counts: counts({ sent: 2, delivered: 0, read: 0 }),
      recipients: { records: [recipient({ ack: 2 })], count: 1, hasMore: false },
    };
    const data = { pages: [page], pageParams: [1] };
    const ack = {
      action: 'progress',
      campaignId: 1,
      status: 'FINALIZADA',
      counts: counts({ sent: 2, delivered: 2, read: 1 }),
    } as const;
    const live = liveFromEvent({}, ack, 1);
    expect(reportView(data, live ?? {}).counts).toMatchObject({ sent: 2, delivered: 2, read: 1 });
    // the rows show each recipient's ack: asked again after the event
    const rows = vi.fn();
    const refresher = liveRefresher(rows, vi.fn());
    refresher.onEvent(live?.status);
    vi.advanceTimersByTime(1500);
    expect(rows).toHaveBeenCalledTimes(1);
    refresher.dispose();
    vi.useRealTimers();
  });

  it('asks the rows again at most every 1.5 s, and everything 5 s after FINALIZADA', async () => {
    vi.useFakeTimers();
    const { liveRefresher } = await import('./useCampaignReport');
    const rows = vi.fn();
    const all = vi.fn();
    const refresher = liveRefresher(rows, all);
    refresher.onEvent('EM_ANDAMENTO');
    refresher.onEvent('EM_ANDAMENTO');
    vi.advanceTimersByTime(1499);
    expect(rows).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(rows).toHaveBeenCalledTimes(1);
    refresher.onEvent('FINALIZADA');
    vi.advanceTimersByTime(4999);
    expect(all).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(all).toHaveBeenCalledTimes(1);
    refresher.onEvent('FINALIZADA');
    refresher.dispose();
    vi.advanceTimersByTime(10_000);
    expect(all).toHaveBeenCalledTimes(1);
    expect(rows).toHaveBeenCalledTimes(2);
  });
});

describe('campaign screens (server render, pt)', { timeout: 90_000 }, () => {
  it('/campaigns lists the campaigns with status, audience, dates and the actions their status allows', async () => {
    const { default: CampaignsPage } = await import('./CampaignsPage');
    const client = new QueryClient();
    const running = campaign({ id: 2, name: 'Natal', status: 'EM_ANDAMENTO', scheduledAt: at(-HOUR) });
    const cancelled = campaign({ id: 3, name: 'Páscoa', status: 'CANCELADA', tag: { id: 9, name: 'vip' } });
    const done = campaign({ id: 4, name: 'Dia das mães', status: 'FINALIZADA', completedAt: at(-60_000) });
    client.setQueryData(['campaigns', 'page', '', {}], {
      pages: [{ records: [campaign(), running, cancelled, done], hasMore: false, count: 4 }],
      pageParams: [1],
    });

    const html = await renderScreen(<CampaignsPage />, { path: '/campaigns', client });

    for (const testId of [
      'campaigns-add',
      'campaigns-search',
      'campaign-row-1',
      'campaign-report-1',
      'campaign-edit-1',
      'campaign-delete-1',
      'campaign-cancel-2',
      'campaign-restart-3',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    for (const testId of ['campaign-cancel-1', 'campaign-restart-1', 'campaign-cancel-3', 'campaign-restart-2']) {
      expect(html, testId).not.toContain(`data-testid="${testId}"`);
    }
    for (const text of ['Campanhas', 'Inativa', 'Em andamento', 'Cancelada', 'Finalizada', 'Clientes VIP', '#vip']) {
      expect(html, text).toContain(text);
    }
    expect(html).toContain('Sem agendamento');
    expect(html).toContain('Não concluída');
  });

  it('/campaign/:id/report shows the counts, their bars and every recipient with its state', async () => {
    const { default: CampaignReportPage } = await import('./CampaignReportPage');
    const client = new QueryClient();
    const page: TCampaignReport = {
      campaign: campaign({ status: 'EM_ANDAMENTO', scheduledAt: at(-HOUR) }),
      counts: counts({ atLeastOnce: 1 }),
      recipients: {
        records: [
          recipient({ id: 1, number: '5511900000001', state: 'sent', ack: 4, time: at(-60_000) }),
          recipient({ id: 2, number: '5511900000002', state: 'sent', ack: 1, atLeastOnce: true, time: at(-50_000) }),
          recipient({ id: 3, number: '5511900000003', state: 'failed', error: 'number not on WhatsApp' }),
          recipient({ id: 4, number: '5511900000004' }),
        ],
        count: 4,
        hasMore: false,
      },
    };
    client.setQueryData(['campaign-report', 2], { pages: [page], pageParams: [1] });

    const html = await renderScreen(
      <Routes>
        <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
      </Routes>,
      { path: '/campaign/2/report', client },
    );

    expect(html).toContain('Relatório de Black Friday');
    expect(html).toContain('data-testid="campaign-report-status"');
    for (const [key, value] of [
      ['valid', 4],
      ['sent', 2],
      ['delivered', 1],
      ['read', 1],
      ['failed', 1],
    ] as const) {
      expect(html, key).toMatch(new RegExp(`data-testid="campaign-report-count-${key}" data-value="${value}"`));
    }
    // sent + failed of the valid recipients
    expect(html).toContain('3 de 4');
    expect(html).toMatch(/data-testid="recipient-state-1" data-state="read"/);
    expect(html).toMatch(/data-testid="recipient-state-2" data-state="sent"/);
    expect(html).toMatch(/data-testid="recipient-state-3" data-state="failed"/);
    expect(html).toMatch(/data-testid="recipient-state-4" data-state="queued"/);
    expect(html).toContain('data-testid="recipient-at-least-once-2"');
    expect(html).not.toContain('data-testid="recipient-at-least-once-1"');
    expect(html).toContain('number not on WhatsApp');
    expect(html).toContain('data-testid="campaign-report-at-least-once"');
    expect(html).toContain('Loja');
  });

  it('/campaigns-config shows the stored intervals and the variables', async () => {
    const { default: CampaignsConfigPage } = await import('./CampaignsConfigPage');
    const client = new QueryClient();
    client.setQueryData(['campaign-settings'], {
      messageInterval: 5,
      longerIntervalAfter: 0,
      greaterInterval: 120,
      variables: [{ key: 'loja', value: 'Rua Central, 10' }],
    });

    const html = await renderScreen(<CampaignsConfigPage />, { path: '/campaigns-config', client });

    expect(html).toContain('Configurações de campanhas');
    expect(html).toMatch(
      /value="5"[^>]*data-testid="campaign-settings-messageInterval"|data-testid="campaign-settings-messageInterval"[^>]*value="5"/,
    );
    expect(html).toContain('5 segundos');
    expect(html).toContain('Não definido');
    expect(html).toContain('120 segundos');
    expect(html).toContain('data-testid="campaign-variable-loja"');
    expect(html).toContain('Rua Central, 10');
    expect(html).toContain('data-testid="campaign-settings-save"');
    expect(html).not.toContain('data-testid="campaign-variables-empty"');
  });
});
