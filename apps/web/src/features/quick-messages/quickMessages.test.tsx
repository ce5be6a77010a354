import { QueryClient } from '@tanstack/react-query';
import type { TQuickMessage } from '@zelo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; body?: unknown }[] = [];
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  const record = (method: string) => async (url: string, body?: unknown) => {
    calls.push({ method, url, body });
    return {
      // the record named in the path, else a new one
      id: Number(/\/quick-messages\/(\d+)/.exec(url)?.[1] ?? 7),
      shortcode: 'hi',
      message: '',
      geral: true,
      status: true,
      isMedia: false,
      mediaPath: null,
      mediaName: null,
      userId: 1,
      step: method,
    };
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

beforeAll(() => stubLocalStorage());
beforeEach(() => {
  calls.length = 0;
});

const quick = (fields: Partial<TQuickMessage> = {}): TQuickMessage => ({
  id: 1,
  shortcode: 'prices',
  message: 'Our prices',
  geral: true,
  status: true,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  userId: 1,
  ...fields,
});
const withFile = quick({ isMedia: true, mediaPath: 'http://h/public/ab.pdf', mediaName: 'price_list.pdf' });

describe('quick messages: what the dialog shows and saves', { timeout: 90_000 }, () => {
  it('shows the chosen file, else the stored one unless it is being removed', async () => {
    const { shownAttachment } = await import('../../components/MediaAttachment');
    const file = new File(['x'], 'new file.png');
    expect(shownAttachment(withFile, { kind: 'keep' })).toBe('price_list.pdf');
    expect(shownAttachment(withFile, { kind: 'attach', file })).toBe('new file.png');
    expect(shownAttachment(withFile, { kind: 'remove' })).toBeNull();
    expect(shownAttachment(quick(), { kind: 'keep' })).toBeNull();
    expect(shownAttachment(null, { kind: 'keep' })).toBeNull();
  });

  it('creates, then uploads the chosen file as `file` with `typeArch`', async () => {
    const { saveQuickMessage } = await import('./useQuickMessagesList');
    const created: number[] = [];
    const file = new File(['%PDF'], 'price list.pdf', { type: 'application/pdf' });
    const body = { shortcode: 'hi', message: 'Hello', geral: true };
    const saved = await saveQuickMessage(null, body, { kind: 'attach', file }, false, (r) => created.push(r.id));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /quick-messages',
      'UPLOAD /quick-messages/7/media-upload',
    ]);
    expect(calls[0].body).toEqual(body);
    const form = calls[1].body as FormData;
    expect(form.get('typeArch')).toBe('quickMessage');
    expect((form.get('file') as File).name).toBe('price list.pdf');
    expect(created).toEqual([7]);
    expect(saved).toMatchObject({ step: 'UPLOAD' });
  });

  it('edits, removing a stored file; nothing to remove asks nothing more', async () => {
    const { saveQuickMessage } = await import('./useQuickMessagesList');
    const body = { shortcode: 'hi', message: 'Hello', geral: false };
    await saveQuickMessage(3, body, { kind: 'remove' }, true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /quick-messages/3',
      'DELETE /quick-messages/3/media-upload',
    ]);
    calls.length = 0;
    await saveQuickMessage(3, body, { kind: 'remove' }, false);
    await saveQuickMessage(3, body, { kind: 'keep' }, true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['PUT /quick-messages/3', 'PUT /quick-messages/3']);
  });

  it('reads the realtime events as list changes', async () => {
    const { quickMessageEventChange } = await import('./useQuickMessagesList');
    expect(quickMessageEventChange({ action: 'delete', id: '4' })).toEqual({ remove: 4 });
    expect(quickMessageEventChange({ action: 'update', record: withFile })).toEqual({ upsert: withFile });
  });

  it('lets the author and admins change one, nobody else', async () => {
    const { canEditQuickMessage } = await import('./QuickMessagesPage');
    expect(canEditQuickMessage(quick({ userId: 1 }), { id: 1, isAdmin: false })).toBe(true);
    expect(canEditQuickMessage(quick({ userId: 2 }), { id: 1, isAdmin: false })).toBe(false);
    expect(canEditQuickMessage(quick({ userId: 2 }), { id: 1, isAdmin: true })).toBe(true);
  });
});

describe('QuickMessagesPage', { timeout: 90_000 }, () => {
  it('lists the quick messages with their files; only editable rows get actions', async () => {
    const { default: QuickMessagesPage } = await import('./QuickMessagesPage');
    const agent = sessionUser({ profile: 'user', allTicket: 'desabled', canSeeTicketsWithoutQueue: false });
    const client = new QueryClient();
    const others = quick({ id: 2, shortcode: 'others', userId: 9, message: 'Not mine' });
    client.setQueryData(['quick-messages', 'page', '', { userId: 1 }], {
      pages: [{ records: [withFile, others], hasMore: false, count: 2 }],
      pageParams: [1],
    });

    const html = await renderScreen(<QuickMessagesPage />, { path: '/quick-messages', user: agent, client });

    for (const testId of [
      'quick-messages-add',
      'quick-messages-search',
      'quick-message-row-prices',
      'quick-message-edit-prices',
      'quick-message-delete-prices',
      'quick-message-row-others',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).not.toContain('data-testid="quick-message-edit-others"');
    expect(html).toContain('price_list.pdf');
    expect(html).toContain('Quick replies');
  });
});
