import type { TConnection } from '@zelo/shared';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { applySessionUpdate } from './connectionsCache';

/** Server-side render (no DOM) of a connection's status with the reason its session fails. */
beforeAll(() => {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});

const render = async (lng: string, props: Parameters<typeof import('./ConnectionStatus').ConnectionStatus>[0]) => {
  const { i18n } = await import('../../i18n');
  await import('./i18n');
  await i18n.changeLanguage(lng);
  const { ConnectionStatus } = await import('./ConnectionStatus');

  return renderToString(<ConnectionStatus {...props} testId="s" />);
};

describe('ConnectionStatus', { timeout: 60_000 }, () => {
  it('says in the user’s language that WhatsApp’s servers cannot be reached', async () => {
    const en = await render('en', { status: 'DISCONNECTED', provider: 'baileys', error: 'unreachable' });
    expect(en).toContain('Disconnected');
    expect(en).toContain('data-testid="s-note"');
    expect(en).toContain('WhatsApp&#x27;s servers cannot be reached');
    const pt = await render('pt', { status: 'OPENING', provider: 'baileys', error: 'unreachable' });
    expect(pt).toContain('Não foi possível alcançar os servidores do WhatsApp');
    const es = await render('es', { status: 'DISCONNECTED', provider: 'baileys', error: 'unreachable' });
    expect(es).toContain('No se pudo llegar a los servidores de WhatsApp');
  });

  it('says nothing of it without a reason, or once the session works', async () => {
    expect(await render('en', { status: 'DISCONNECTED', provider: 'baileys', error: null })).not.toContain('s-note');
    expect(await render('en', { status: 'CONNECTED', provider: 'baileys', error: 'unreachable' })).not.toContain(
      'cannot be reached',
    );
  });

  it('a session update brings the reason and takes it away', () => {
    const base = { id: 7, status: 'OPENING', lastError: null, updatedAt: '2026-01-01T00:00:00.000Z' } as TConnection;
    const failing = applySessionUpdate([base], { id: 7, status: 'DISCONNECTED', lastError: 'unreachable' });
    expect(failing?.[0]).toMatchObject({ status: 'DISCONNECTED', lastError: 'unreachable' });
    expect(applySessionUpdate(failing, { id: 7, status: 'qrcode', lastError: null })?.[0].lastError).toBeNull();
  });
});
