import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallError, apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  VIEWPORT,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerOutbox,
  customerWrites,
  idOfTestId,
  pairSandbox,
  pngImage,
  shownAck,
  storedOwnMessage,
  type TOutboxMessage,
  ticketRowOf,
  until,
  waitForConnectionStatus,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * The composer's ways of answering, in Chromium (issue 3 part 6, issue 4's window notice and failure reasons):
 * Enter and Shift+Enter, growth to 5 rows, quick answers on '/', the reply bar, audio recording with the
 * 10000-byte rule, pasting an image, editing and deleting one's own messages (and not another attendant's),
 * failed sends with their reason and a retry, the new-ticket dialog, the customer-service window notice, the
 * composer off unless the ticket is open, and a non-admin attendant's day.
 */

/** Chromium with a fake microphone that needs no permission prompt, for the recording tests; this spec only. */
const launchWithFakeMicrophone = () =>
  launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']);

/** what the sandbox outbox also tells: the quoted message, edits, deletes, voice notes */
type TReceived = TOutboxMessage & {
  quotedExternalId?: string;
  edited?: boolean;
  deleted?: boolean;
  media?: TOutboxMessage['media'] & { asVoiceNote?: boolean };
};

const received = async (token: string, connectionId: number, to: string) =>
  (await customerOutbox(token, connectionId, to)) as TReceived[];

const waitForReceived = (token: string, connectionId: number, to: string, match: (m: TReceived) => boolean) =>
  waitForOutboxMessage(token, connectionId, to, (m) => match(m as TReceived)) as Promise<TReceived>;

const pickLanguage = async (page: Page, lang: 'pt' | 'en') => {
  await page.getByTestId('language-picker').first().click();
  await page.getByTestId(`lang-${lang}`).click();
  await page.getByTestId(`lang-${lang}`).waitFor({ state: 'detached' });
};

/** The same screen in English and in Portuguese: composer-<name>-en.png and composer-<name>-pt.png. */
const shootBothLanguages = async (page: Page, name: string) => {
  await screenshot(page, `composer-${name}-en`);
  await pickLanguage(page, 'pt');
  await screenshot(page, `composer-${name}-pt`);
  await pickLanguage(page, 'en');
};

const phone = (prefix: string) => `${prefix}${String(Date.now()).slice(-8)}${Math.floor(Math.random() * 10)}`;

describe('composer: every way of answering, in Chromium', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  /** a second admin of the company: the API side (customers, settings, another attendant) */
  let token: string;
  let apiAdminName = '';
  let connectionId = 0;
  let ticketId = 0;
  let customerMessageExternalId = '';
  const id = unique();
  const customer = { number: phone('5521'), name: `Cliente ${id}` };
  const quick = { shortcode: `ola${id}`, message: `Olá! Como posso ajudar hoje? (${id})` };
  /** a number the sandbox network does not know: sends to it fail in the channel */
  const offNetwork = { number: `000${String(Date.now()).slice(-9)}`, name: `Sem WhatsApp ${id}` };
  let offNetworkContactId = 0;
  const page = () => opened.page;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Composer'));
    apiAdminName = (await apiCall<{ name: string }>('GET', '/auth/me', { token })).name;
    connectionId = await createSandboxConnection(token, `Loja ${id}`);
    // created before the connection is paired, so nobody checks that the number is on WhatsApp
    offNetworkContactId = (
      await apiCall<{ id: number }>('POST', '/contacts', {
        token,
        body: { name: offNetwork.name, number: offNetwork.number },
      })
    ).id;
    await pairSandbox(token, connectionId);
    await apiCall('POST', '/quick-messages', { token, body: { ...quick, geral: true } });
    browser = await launchWithFakeMicrophone();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await opened.context.grantPermissions(['microphone']);
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('accepts a customer ticket and opens its conversation', async () => {
    await waitForSocketReady(opened);
    customerMessageExternalId = (
      await customerWrites(token, connectionId, customer.number, customer.name, 'Olá, *preciso* de _ajuda_ ~agora~')
    ).externalId;
    await page().getByTestId('menu-tickets').click();
    await page().getByTestId('tickets-subtab-pending').click();
    const row = ticketRowOf(page().getByTestId('tickets-list-pending'), customer.name);
    await row.waitFor();
    ticketId = await idOfTestId(row);
    await page().getByTestId(`ticket-accept-${ticketId}`).click();
    await page().getByTestId('conversation').waitFor();
    // WhatsApp formatting in the bubble, as elements
    const bubble = page().locator('[data-from-me="false"]').filter({ hasText: 'preciso' });
    expect(await bubble.locator('strong').textContent()).toBe('preciso');
    expect(await bubble.locator('em').textContent()).toBe('ajuda');
    expect(await bubble.locator('s').textContent()).toBe('agora');
    // the preview in the list has no markers
    await ticketRowOf(page().getByTestId('tickets-list-open'), customer.name)
      .getByText('Olá, preciso de ajuda agora')
      .waitFor();
  });

  it('Enter sends, Shift+Enter breaks the line, and the input grows up to 5 rows', async () => {
    const input = page().getByTestId('composer-input');
    const oneRow = (await input.boundingBox())?.height ?? 0;
    await input.click();
    await input.pressSequentially('first line');
    await input.press('Shift+Enter');
    await input.pressSequentially('second line');
    expect(await input.inputValue()).toBe('first line\nsecond line');
    const twoRows = (await input.boundingBox())?.height ?? 0;
    expect(twoRows).toBeGreaterThan(oneRow * 1.5);
    for (let i = 3; i <= 8; i++) {
      await input.press('Shift+Enter');
      await input.pressSequentially(`line ${i}`);
    }
    const tall = (await input.boundingBox())?.height ?? 0;
    // five rows, then it scrolls
    expect(Math.round(tall / oneRow)).toBe(5);
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');
    const sent = await waitForReceived(token, connectionId, customer.number, (m) => m.body.endsWith('line 8'));
    expect(sent.body).toContain('first line\nsecond line\nline 3');
    const rows = await input.evaluate((el) => (el as HTMLTextAreaElement).rows);
    expect(rows).toBeGreaterThanOrEqual(1);
    expect((await input.boundingBox())?.height ?? 0).toBeLessThan(oneRow * 1.5);
  });

  it("offers quick answers on '/', taken with Enter, then sent with Enter", async () => {
    const input = page().getByTestId('composer-input');
    await input.pressSequentially(`/${quick.shortcode.slice(0, 5)}`);
    const list = page().getByTestId('quick-answers');
    await list.waitFor();
    expect(await list.textContent()).toContain(`/${quick.shortcode}`);
    await input.press('Enter');
    expect(await input.inputValue()).toBe(quick.message);
    await list.waitFor({ state: 'detached' });
    await input.press('Enter');
    await waitForReceived(token, connectionId, customer.number, (m) => m.body.endsWith(quick.message));
    // Escape closes the list and the text stays
    await input.pressSequentially('/');
    await list.waitFor();
    await input.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe('/');
    await input.fill('');
  });

  it('picks emoji from the picker: searched in Portuguese, taken with the keyboard and the mouse, data from our origin', async () => {
    const fetched: string[] = [];
    const onRequest = (request: Request) => {
      if (request.resourceType() === 'fetch') fetched.push(request.url());
    };
    page().on('request', onRequest);
    await pickLanguage(page(), 'pt');
    const input = page().getByTestId('composer-input');
    await input.fill('Obrigado ');
    await page().getByTestId('composer-emoji').click();
    const search = page().getByTestId('emoji-search');
    await search.waitFor();
    expect(await search.getAttribute('placeholder')).toBe('Buscar emoji');
    await page().getByTestId('emoji-option').first().waitFor();
    // the groups carry our names, not Emojibase's ("comutadores" for the flags)
    await page().getByTestId('emoji-picker').getByText('Carinhas e emoções').first().waitFor();
    // the search field has the focus: Portuguese names and tags find their emoji, English ones find none
    await page().keyboard.type('coração vermelho');
    const red = page().getByRole('gridcell', { name: 'Coração vermelho', exact: true });
    await red.waitFor();
    await screenshot(page(), 'composer-emoji-picker-pt');
    await search.fill('heart');
    await page().getByTestId('emoji-empty').waitFor();
    expect(await page().getByTestId('emoji-empty').textContent()).toBe('Nenhum emoji para “heart”');
    // the first result is active; arrows move through the results and Enter takes the one shown as active
    await search.fill('polegar');
    await page().getByRole('gridcell', { name: 'Polegar para cima', exact: true }).waitFor();
    const activeEmoji = page().getByTestId('emoji-active');
    await expect.poll(() => activeEmoji.textContent()).toMatch(/Polegar para cima$/);
    await search.press('ArrowRight');
    await expect.poll(() => activeEmoji.textContent()).not.toMatch(/Polegar para cima$/);
    const active = (await activeEmoji.textContent()) ?? '';
    const [keyed] = active.split(/\s+/);
    expect(active).toMatch(/polegar/i);
    await search.press('Enter');
    expect(await input.inputValue()).toBe(`Obrigado ${keyed}`);
    // the picker stays open for another one, by the mouse
    await search.fill('coração vermelho');
    await red.click();
    await page().keyboard.press('Escape');
    await page().getByTestId('emoji-picker').waitFor({ state: 'detached' });
    expect(await input.inputValue()).toBe(`Obrigado ${keyed}❤️`);
    await input.press('Enter');
    await waitForReceived(token, connectionId, customer.number, (m) => m.body.endsWith(`Obrigado ${keyed}❤️`));
    page().off('request', onRequest);
    // Emojibase's Portuguese files, from the app's own origin (the CSP allows no other)
    const origin = new URL(page().url()).origin;
    expect(fetched.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    const emojibase = fetched.filter((url) => url.includes('/emojibase/'));
    expect(emojibase).toContain(`${origin}/emojibase/pt/data.json`);
    expect(emojibase.every((url) => url.startsWith(`${origin}/emojibase/pt/`))).toBe(true);

    // on a phone, in the dark theme: the picker fits the screen and takes the theme's paper
    await page().getByTestId('theme-toggle').click();
    await page().setViewportSize({ width: 390, height: 800 });
    await page().getByTestId('composer-emoji').click();
    await page().getByTestId('emoji-option').first().waitFor();
    const box = await page().getByTestId('emoji-picker').boundingBox();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(390);
    const background = await page()
      .getByTestId('emoji-picker')
      .evaluate((el) => getComputedStyle(el.closest('.MuiPaper-root') ?? el).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    await screenshot(page(), 'composer-emoji-picker-pt-dark-390');
    await page().keyboard.press('Escape');
    await page().getByTestId('emoji-picker').waitFor({ state: 'detached' });
    await page().setViewportSize(VIEWPORT);
    await page().getByTestId('theme-toggle').click();
    await pickLanguage(page(), 'en');
  });

  it('answers with a quote: the reply bar, and the customer receives the reply quoting their message', async () => {
    const theirs = page().locator('[data-from-me="false"]').filter({ hasText: 'preciso' });
    const theirId = await idOfTestId(theirs);
    await theirs.hover();
    await page().getByTestId(`message-menu-${theirId}`).click();
    // a customer's message: reply only
    await page().getByTestId(`message-reply-${theirId}`).waitFor();
    expect(await page().getByTestId(`message-edit-${theirId}`).count()).toBe(0);
    expect(await page().getByTestId(`message-delete-${theirId}`).count()).toBe(0);
    await page().getByTestId(`message-reply-${theirId}`).click();
    const bar = page().getByTestId('reply-bar');
    await bar.waitFor();
    expect(await bar.textContent()).toContain('Olá, preciso de ajuda agora');
    // the input has the focus, ready to type
    expect(
      await page()
        .getByTestId('composer-input')
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await shootBothLanguages(page(), 'reply-bar');
    await page().getByTestId('composer-input').click();
    await page().keyboard.type('Claro, vamos ver');
    await page().keyboard.press('Enter');
    await bar.waitFor({ state: 'detached' });
    const reply = await storedOwnMessage(page(), 'Claro, vamos ver');
    await reply.bubble.getByTestId('message-quoted').getByText('Olá, preciso de ajuda agora').waitFor();
    const got = await waitForReceived(token, connectionId, customer.number, (m) => m.body.endsWith('Claro, vamos ver'));
    expect(got.quotedExternalId).toBe(customerMessageExternalId);
  });

  it('records audio with a running timer and sends it; the customer receives a voice note', async () => {
    const before = (await received(token, connectionId, customer.number)).length;
    await page().getByTestId('composer-record').click();
    await page().getByTestId('composer-recording').waitFor();
    const timer = page().getByTestId('composer-record-timer');
    expect(await timer.textContent()).toBe('00:00');
    await expect.poll(() => timer.textContent(), { timeout: 5000, interval: 100 }).toBe('00:02');
    await shootBothLanguages(page(), 'recording');
    await page().getByTestId('composer-record-send').click();
    const audio = await waitForReceived(
      token,
      connectionId,
      customer.number,
      (m) => m.type === 'media' && m.media?.mimetype.startsWith('audio/') === true,
    );
    // ffmpeg is on this machine (CI installs it): the recording goes as an ogg/opus voice note
    expect(audio.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', asVoiceNote: true });
    expect(audio.media?.size).toBeGreaterThan(1000);
    expect(audio.body).toBe('');
    expect((await received(token, connectionId, customer.number)).length).toBe(before + 1);
    await page().locator('[data-from-me="true"]').getByTestId('message-audio').last().waitFor();
    await page().getByTestId('composer-record').waitFor();
  });

  it('drops a recording under 10000 bytes and says so', async () => {
    const before = (await received(token, connectionId, customer.number)).length;
    // the recorder's output is made tiny, as a recording stopped at once would be
    await page().evaluate(() => {
      const original = MediaRecorder.prototype.start;
      MediaRecorder.prototype.start = function (this: MediaRecorder, ...args: Parameters<MediaRecorder['start']>) {
        this.addEventListener('dataavailable', (e) => e.stopImmediatePropagation(), { capture: true, once: true });
        original.apply(this, args);
        setTimeout(() => {
          const small = new Blob([new Uint8Array(500)], { type: 'audio/webm' });
          this.ondataavailable?.(new BlobEvent('dataavailable', { data: small }));
        }, 50);
      };
    });
    await page().getByTestId('composer-record').click();
    await page().getByTestId('composer-recording').waitFor();
    await page().waitForTimeout(300);
    await page().getByTestId('composer-record-send').click();
    await waitForToast(page(), 'info', 'Recording too short: the audio was not sent.');
    await page().getByTestId('composer-record').waitFor();
    await page().waitForTimeout(1000);
    expect((await received(token, connectionId, customer.number)).length).toBe(before);
    await page().reload();
    await page().getByTestId('conversation').waitFor();
  });

  it('pastes an image from the clipboard into the composer, which sends it', async () => {
    const png = pngImage().toString('base64');
    await page()
      .getByTestId('composer-input')
      .evaluate((el, b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, png);
    await page().getByTestId('attachments-preview').getByText('pasted.png').waitFor();
    await page().getByTestId('attachments-caption').fill('colado');
    await page().getByTestId('attachments-send').click();
    await page().getByTestId('attachments-preview').waitFor({ state: 'detached' });
    const media = await waitForReceived(
      token,
      connectionId,
      customer.number,
      (m) => m.type === 'media' && m.media?.mimetype === 'image/png',
    );
    expect(media.media?.size).toBe(pngImage().length);
    expect(media.body.endsWith('colado')).toBe(true);
    const bubble = await storedOwnMessage(page(), 'colado');
    await bubble.bubble.getByTestId('message-image').waitFor();
  });

  it("edits and deletes one's own message; the customer sees both; another attendant's cannot be touched", async () => {
    const input = page().getByTestId('composer-input');
    await input.fill('Pedido 123 confirmado');
    await input.press('Enter');
    const mine = await storedOwnMessage(page(), 'Pedido 123 confirmado');
    const first = await waitForReceived(token, connectionId, customer.number, (m) =>
      m.body.endsWith('Pedido 123 confirmado'),
    );

    await mine.bubble.hover();
    await page().getByTestId(`message-menu-${mine.id}`).click();
    await page().getByTestId(`message-edit-${mine.id}`).click();
    const editInput = page().getByTestId('message-edit-input');
    expect(await editInput.inputValue()).toContain('Pedido 123 confirmado');
    await editInput.fill('Pedido 124 confirmado');
    await page().getByTestId('message-edit-save').click();
    await page().getByTestId(`message-edited-${mine.id}`).waitFor();
    const edited = page().getByTestId(`message-${mine.id}`);
    await edited.getByText('Pedido 124 confirmado').waitFor();
    expect(await page().locator('[data-from-me="true"]').filter({ hasText: 'Pedido 123' }).count()).toBe(0);
    await expect
      .poll(async () =>
        (await received(token, connectionId, customer.number)).find((m) => m.externalId === first.externalId),
      )
      .toMatchObject({ body: 'Pedido 124 confirmado', edited: true });

    await input.fill('Mensagem por engano');
    await input.press('Enter');
    const wrong = await storedOwnMessage(page(), 'Mensagem por engano');
    const wrongSent = await waitForReceived(token, connectionId, customer.number, (m) =>
      m.body.endsWith('Mensagem por engano'),
    );
    await wrong.bubble.hover();
    await page().getByTestId(`message-menu-${wrong.id}`).click();
    await page().getByTestId(`message-delete-${wrong.id}`).click();
    await page().getByTestId('confirm-ok').click();
    await page().getByTestId(`message-deleted-${wrong.id}`).waitFor();
    await expect
      .poll(async () =>
        (await received(token, connectionId, customer.number)).find((m) => m.externalId === wrongSent.externalId),
      )
      .toMatchObject({ deleted: true });
    await shootBothLanguages(page(), 'edited-deleted');

    // another attendant (the API admin) writes on this ticket: their message offers reply only
    const theirs = await apiCall<{ id: number }>('POST', `/messages/${ticketId}`, {
      token,
      body: { body: `Aqui é ${apiAdminName}` },
    });
    const theirBubble = page().getByTestId(`message-${theirs.id}`);
    await theirBubble.waitFor();
    expect(await theirBubble.getAttribute('data-from-me')).toBe('true');
    await theirBubble.hover();
    await page().getByTestId(`message-menu-${theirs.id}`).click();
    await page().getByTestId(`message-reply-${theirs.id}`).waitFor();
    expect(await page().getByTestId(`message-edit-${theirs.id}`).count()).toBe(0);
    expect(await page().getByTestId(`message-delete-${theirs.id}`).count()).toBe(0);
    await page().keyboard.press('Escape');
    // and the server refuses anybody but the author, with the catalogue code
    for (const [method, body] of [
      ['PUT', { body: 'hijacked' }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await apiCall('' + method, `/messages/${mine.id}`, { token, body }).catch((err) => err);
      expect(refused).toBeInstanceOf(ApiCallError);
      expect((refused as ApiCallError).status).toBe(403);
      expect(((refused as ApiCallError).body as { error: string }).error).toBe('ERR_NO_PERMISSION');
    }
    await edited.getByText('Pedido 124 confirmado').waitFor();
  });

  it('a send refused while the connection is down shows why, and its retry delivers it once reconnected', async () => {
    await apiCall('DELETE', `/whatsappsession/${connectionId}`, { token });
    await waitForConnectionStatus(token, connectionId, 'DISCONNECTED');
    const input = page().getByTestId('composer-input');
    await input.fill('Enviada depois da queda');
    await input.press('Enter');
    await waitForToast(page(), 'error', 'This WhatsApp session is not initialized. Check the connections page.');
    const failure = page().locator('[data-testid^="message-error-"][data-error-code="ERR_WAPP_NOT_INITIALIZED"]');
    await failure.waitFor();
    expect(await failure.textContent()).toContain(
      'Not sent: This WhatsApp session is not initialized. Check the connections page.',
    );
    const bubble = page().locator('[data-from-me="true"]').filter({ hasText: 'Enviada depois da queda' });
    expect(await bubble.getAttribute('data-testid')).toMatch(/^message--\d+$/);
    await shootBothLanguages(page(), 'failed-retry');

    await apiCall('POST', `/whatsappsession/${connectionId}`, { token });
    await waitForConnectionStatus(token, connectionId, 'qrcode');
    await pairSandbox(token, connectionId);
    await bubble.getByTestId(/^message-retry-/).click();
    const stored = await storedOwnMessage(page(), 'Enviada depois da queda');
    await expect.poll(() => shownAck(page(), stored.id)).toBeGreaterThanOrEqual(2);
    expect(await page().locator('[data-testid^="message-error-"]').count()).toBe(0);
    await waitForReceived(token, connectionId, customer.number, (m) => m.body.endsWith('Enviada depois da queda'));
  });

  it('opens a ticket for an existing contact from the dialog; a send the channel rejects shows its reason and is retried', async () => {
    await page().getByTestId('tickets-new').click();
    const dialog = page().getByTestId('new-ticket-dialog');
    await dialog.waitFor();
    await page().getByTestId('new-ticket-contact').fill(offNetwork.name.slice(0, 8));
    await page().getByTestId(`new-ticket-contact-${offNetworkContactId}`).click();
    await page().getByTestId('new-ticket-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await page().getByTestId('conversation-contact-name').filter({ hasText: offNetwork.name }).waitFor();
    const input = page().getByTestId('composer-input');
    await input.fill('Seu boleto está disponível');
    await input.press('Enter');
    // stored, then refused by the network: failed with the catalogue reason and the channel's words
    const sent = await storedOwnMessage(page(), 'Seu boleto está disponível');
    const failure = page().getByTestId(`message-error-${sent.id}`);
    await failure.waitFor();
    expect(await failure.getAttribute('data-error-code')).toBe('ERR_WAPP_INVALID_CONTACT');
    expect(await failure.textContent()).toContain('Not sent: This is not a valid WhatsApp number.');
    expect(await page().getByTestId(`message-error-detail-${sent.id}`).textContent()).toBe('Not a WhatsApp number');
    expect(await page().getByTestId(`message-ack-${sent.id}`).getAttribute('data-ticks')).toBe('error');
    await screenshot(page(), 'composer-failed-channel-en');

    // the number is corrected; the retry sends the same message again
    const fixed = phone('5531');
    await apiCall('PUT', `/contacts/${offNetworkContactId}`, {
      token,
      body: { name: offNetwork.name, number: fixed },
    });
    await page().getByTestId(`message-retry-${sent.id}`).click();
    await page().getByTestId(`message-error-${sent.id}`).waitFor({ state: 'detached' });
    await expect.poll(() => shownAck(page(), sent.id)).toBeGreaterThanOrEqual(2);
    await waitForReceived(token, connectionId, fixed, (m) => m.body.endsWith('Seu boleto está disponível'));
    expect(
      await page().locator('[data-from-me="true"]').filter({ hasText: 'Seu boleto está disponível' }).count(),
    ).toBe(1);
  });

  it('opens a ticket for a new number, creating the contact in the dialog', async () => {
    const number = phone('5541');
    await page().getByTestId('tickets-new').click();
    await page().getByTestId('new-ticket-contact').fill(number);
    await page().getByTestId('new-ticket-create-contact').click();
    expect(await page().getByTestId('contact-number').inputValue()).toBe(number);
    await page().getByTestId('contact-name').fill(`Novo ${id}`);
    await page().getByTestId('contact-save').click();
    await waitForToast(page(), 'success', 'Contact created');
    expect(await page().getByTestId('new-ticket-contact').inputValue()).toContain(`Novo ${id}`);
    await page().getByTestId('new-ticket-ok').click();
    await page().getByTestId('new-ticket-dialog').waitFor({ state: 'detached' });
    await page()
      .getByTestId('conversation-contact-name')
      .filter({ hasText: `Novo ${id}` })
      .waitFor();
    const input = page().getByTestId('composer-input');
    await input.fill('Oi! Aqui é da loja.');
    await input.press('Enter');
    await waitForReceived(token, connectionId, number, (m) => m.body.endsWith('Oi! Aqui é da loja.'));
  });

  it('refuses a second ticket: the catalogue text, or the user and queue that hold it', async () => {
    const waiting = { number: phone('5551'), name: `Aguardando ${id}` };
    await customerWrites(token, connectionId, waiting.number, waiting.name, 'Alguém aí?');
    const held = { number: phone('5561'), name: `Atendido ${id}` };
    await customerWrites(token, connectionId, held.number, held.name, 'Oi');
    const heldTicket = await until('the held ticket', async () => {
      const list = await apiCall<{ tickets: { id: number; contact: { name: string } }[] }>(
        'GET',
        '/tickets?status=pending&showAll=true',
        { token },
      );
      return list.tickets.some((t) => t.contact.name === held.name);
    }).then(async () => {
      const list = await apiCall<{ tickets: { id: number; contact: { name: string } }[] }>(
        'GET',
        '/tickets?status=pending&showAll=true',
        { token },
      );
      return list.tickets.find((t) => t.contact.name === held.name)!;
    });
    // the other attendant takes it
    await apiCall('PUT', `/tickets/${heldTicket.id}`, { token, body: { status: 'open' } });

    const openFor = async (name: string) => {
      await page().getByTestId('tickets-new').click();
      await page().getByTestId('new-ticket-contact').fill(name.slice(0, 9));
      await page().locator('[data-testid^="new-ticket-contact-"]').filter({ hasText: name }).click();
      await page().getByTestId('new-ticket-ok').click();
    };
    // pending, nobody's: the catalogue text
    await openFor(waiting.name);
    await waitForToast(page(), 'error', 'There is already an open ticket for this contact.');
    await page().getByTestId('new-ticket-cancel').click();
    await page().getByTestId('new-ticket-dialog').waitFor({ state: 'detached' });

    // held by another user: the dialog names them and the queue
    await openFor(held.name);
    const heldDialog = page().getByTestId('new-ticket-held');
    await heldDialog.waitFor();
    expect(await heldDialog.textContent()).toContain(
      `This contact is already being served by ${apiAdminName}, with no queue.`,
    );
    await screenshot(page(), 'composer-new-ticket-held-en');
    await heldDialog.getByRole('button').click();
    await heldDialog.waitFor({ state: 'detached' });
    await page().getByTestId('new-ticket-cancel').click();
    await page().getByTestId('new-ticket-dialog').waitFor({ state: 'detached' });
  });

  it('shows the customer-service window: closed turns sending off, open shows the time left', async () => {
    const conversationUrl = async () => {
      await page().getByTestId('menu-tickets').click();
      await page().getByTestId('tickets-subtab-assigned').click();
      await ticketRowOf(page().getByTestId('tickets-list-open'), customer.name).click();
      await page().getByTestId('conversation').waitFor();
    };
    const windowAnswer = (body: Record<string, unknown>) =>
      page().route(`**/api/tickets/${ticketId}/window`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) }),
      );
    // a sandbox ticket has no window (the server answers applies: false; a server without the route, 404): nothing shows
    await conversationUrl();
    await page().waitForTimeout(500);
    expect(await page().getByTestId('composer-window-notice').count()).toBe(0);

    await windowAnswer({ provider: 'cloud-api', applies: true, open: false, expiresAt: null });
    await page().reload();
    const notice = page().getByTestId('composer-window-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-state')).toBe('closed');
    expect(await notice.textContent()).toBe('24-hour window closed: the customer must write first.');
    expect(await page().getByTestId('composer-input').isDisabled()).toBe(true);
    expect(await page().getByTestId('composer-attach').isDisabled()).toBe(true);
    expect(await page().getByTestId('composer-record').isDisabled()).toBe(true);
    await shootBothLanguages(page(), 'window-closed');

    // the customer writes: the window is asked again, and now it is open
    await page().unroute(`**/api/tickets/${ticketId}/window`);
    const fiveHours = new Date(Date.now() + 5 * 3_600_000 + 30_000).toISOString();
    await windowAnswer({ provider: 'cloud-api', applies: true, open: true, expiresAt: fiveHours });
    await customerWrites(token, connectionId, customer.number, customer.name, 'Voltei');
    await expect.poll(() => notice.getAttribute('data-state')).toBe('open');
    expect(await notice.textContent()).toBe('Customer-service window: 05h 00m left');
    expect(await page().getByTestId('composer-input').isEnabled()).toBe(true);
    await shootBothLanguages(page(), 'window-open');

    // the server still refuses outside the window: its catalogue text shows
    await page().route(`**/api/messages/${ticketId}`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'ERR_WAPP_WINDOW_CLOSED', message: 'outside the window' }),
          })
        : route.continue(),
    );
    await page().getByTestId('composer-input').fill('Fora da janela');
    await page().getByTestId('composer-input').press('Enter');
    await waitForToast(
      page(),
      'error',
      'The 24-hour customer-service window is closed: the customer must write before you can send a free-form message.',
    );
    await page().unroute(`**/api/messages/${ticketId}`);
    await page().unroute(`**/api/tickets/${ticketId}/window`);
    await page().reload();
    await page().getByTestId('conversation').waitFor();
  });

  it('turns the composer off once the ticket is closed', async () => {
    await page().getByTestId('ticket-resolve').click();
    await waitForPath(page(), '/tickets');
    await page().getByTestId('tickets-tab-closed').click();
    await ticketRowOf(page().getByTestId('tickets-list-closed'), customer.name).click();
    await page().getByTestId('conversation').waitFor();
    expect(await page().getByTestId('composer-input').isDisabled()).toBe(true);
    expect(await page().getByTestId('composer-attach').isDisabled()).toBe(true);
    expect(await page().getByTestId('composer-record').isDisabled()).toBe(true);
    expect(await page().getByTestId('composer-emoji').isDisabled()).toBe(true);
    expectNoPageErrors(opened);
  });

  it("a non-admin attendant sees only their queues' tickets, accepts, replies, and has no peek", async () => {
    const sales = await apiCall<{ id: number; name: string }>('POST', '/queue', {
      token,
      body: { name: `Vendas ${id}`, color: '#2e7d32' },
    });
    const support = await apiCall<{ id: number; name: string }>('POST', '/queue', {
      token,
      body: { name: `Suporte ${id}`, color: '#c62828' },
    });
    // the admin's ticket screens learn the new queues from the realtime events, with no reload
    await page().getByText('Queues (2/2)').waitFor();
    const agent = { name: `Atendente ${id}`, email: `agent-${id}@e2e.test`, password: 'Agent-Pass1' };
    await apiCall('POST', '/users', { token, body: { ...agent, profile: 'user', queueIds: [sales.id] } });
    const inQueue = async (name: string, queueId: number) => {
      const number = phone('5571');
      await customerWrites(token, connectionId, number, name, `Sou ${name}`);
      let found: { id: number } | undefined;
      await until(`${name}'s ticket`, async () => {
        const list = await apiCall<{ tickets: { id: number; contact: { name: string } }[] }>(
          'GET',
          '/tickets?status=pending&showAll=true',
          { token },
        );
        found = list.tickets.find((t) => t.contact.name === name);
        return Boolean(found);
      });
      await apiCall('PUT', `/tickets/${found!.id}`, { token, body: { queueId, status: 'pending', userId: null } });

      return { number, ticketId: found!.id };
    };
    const mineName = `Venda ${id}`;
    const otherName = `Suporte ${id}`;
    const mine = await inQueue(mineName, sales.id);
    const other = await inQueue(otherName, support.id);

    const agentPage = await openPage(browser, { language: 'en', theme: 'light' });
    try {
      await loginThroughUi(agentPage.page, agent.email, agent.password);
      await waitForSocketReady(agentPage);
      const ap = agentPage.page;
      await ap.getByTestId('menu-tickets').click();
      await ap.getByTestId('tickets-subtab-pending').click();
      const pending = ap.getByTestId('tickets-list-pending');
      const row = ticketRowOf(pending, mineName);
      await row.waitFor();
      expect(await ticketRowOf(pending, otherName).count()).toBe(0);
      // no admin peek, and no "show all" for a user without allTicket
      expect(await ap.locator('[data-testid^="ticket-peek-"]').count()).toBe(0);
      expect(await ap.getByTestId('tickets-show-all').count()).toBe(0);
      await ap.getByTestId(`ticket-accept-${mine.ticketId}`).click();
      await ap.getByTestId('conversation').waitFor();
      await ap.getByTestId('composer-input').fill('Olá, sou da equipe de vendas');
      await ap.getByTestId('composer-input').press('Enter');
      const sent = await waitForReceived(token, connectionId, mine.number, (m) =>
        m.body.endsWith('Olá, sou da equipe de vendas'),
      );
      expect(sent.body.startsWith(`*${agent.name}:*\n`)).toBe(true);
      // the signed body shows the name in bold
      const bubble = await storedOwnMessage(ap, 'Olá, sou da equipe de vendas');
      expect(await bubble.bubble.locator('strong').first().textContent()).toBe(`${agent.name}:`);
      // another queue's ticket is refused on the server too
      const refused = await apiCall('GET', `/tickets/${other.ticketId}`, {
        token: await ap.evaluate(() => localStorage.getItem('token') ?? ''),
      }).catch((err) => err);
      expect(refused).toBeInstanceOf(ApiCallError);
      expect((refused as ApiCallError).status).toBe(403);
      await screenshot(ap, 'composer-agent-en');
      expectNoPageErrors(agentPage);
    } finally {
      await agentPage.context.close();
    }
  });

  it("the customer simulator shows the business's WhatsApp formatting, not its markers", async () => {
    await page().getByTestId('menu-simulator').click();
    await waitForPath(page(), '/simulator');
    await page().getByTestId('sim-connection').selectOption(String(connectionId));
    await page().locator('[data-testid="sim-connection-status"][data-status="CONNECTED"]').waitFor();
    await page().getByTestId('sim-number').fill(customer.number);
    await page().getByTestId('sim-name').fill(customer.name);
    await page().getByTestId('sim-add-customer').click();
    const bubble = page()
      .getByTestId('sim-messages')
      .locator('[data-direction="received"]')
      .filter({ hasText: 'Enviada depois da queda' });
    await bubble.waitFor();
    expect(await bubble.locator('strong').first().textContent()).toBe(`${admin.companyName}:`);
    expect(await bubble.textContent()).not.toContain('*');
    await screenshot(page(), 'composer-simulator-formatting-en');
    expectNoPageErrors(opened);
  });
});
