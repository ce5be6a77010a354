import { randomBytes } from 'node:crypto';

/**
 * Valid bodies for the create routes, for the concurrent passes of test/fuzz.test.ts: each is built once and the
 * same body is sent N times at once. A create route is a POST with a JSON body and no path parameter, less the
 * actions listed in NOT_CREATES; one with no body here fails the suite, so a route added later must say what a
 * valid creation of it is.
 */

export type TCreateFixtures = {
  planId: number;
  userId: number;
  contactId: number;
  queueId: number;
  ticketId: number;
  /** the contact of `ticketId` */
  ticketContactId: number;
  flowId: number;
  connectionId: number;
  contactListId: number;
};

/** POSTs without path parameters that create nothing of their own, with the reason */
export const NOT_CREATES: Record<string, string> = {
  'POST /api/auth/login': 'opens a session (each login its own)',
  'POST /api/resetpasswords': 'consumes a reset code',
  'POST /api/tags/sync': "sets a ticket's tags (tried by the mixed pass)",
  'POST /api/queueIntegration/testSession': 'calls Dialogflow, stores nothing',
  'POST /api/subscription': 'a checkout: this server has no payment provider (503)',
  'POST /api/subscription/webhook/asaas': "the provider's signed webhook",
  'POST /api/flowbuilder/flow': "saves a flow's document (an update)",
  'POST /api/contacts/upload': 'imports rows into existing contacts or new ones (tried by the mixed pass)',
};

/**
 * creates whose repeats are distinct rows by design (no name to be unique), or that answer the one row they
 * made to every repeat, with the reason; every other create makes at most one row of N identical requests
 */
export const DUPLICATES_ALLOWED: Record<string, string> = {
  'POST /api/schedules': 'two schedules of one text at one time are two sends the user asked for',
  'POST /api/ticket-notes': 'notes are a log',
  'POST /api/chats': 'chats have titles, not names',
  'POST /api/announcements': 'announcements are a log',
  'POST /api/helps': 'help videos are a list the super user curates',
  'POST /api/campaign-settings': "replaces the company's settings: every repeat answers the same settings",
  'POST /api/flowbuilder/duplicate': 'each copy is named after the free "(copy n)" it found',
  'POST /api/tickets': "the contact's one active ticket is answered to every repeat",
};

const tag = () => randomBytes(3).toString('hex');
const phone = () => `55119${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;

export const createBodies = (fx: TCreateFixtures): Record<string, () => Record<string, unknown> | unknown[]> => ({
  'POST /api/companies/cadastro': () => {
    const t = tag();
    return {
      name: `Race ${t}`,
      email: `race-${t}@example.com`,
      password: 'Race-Pass-1',
      phone: '11999998888',
      planId: fx.planId,
    };
  },
  'POST /api/companies': () => {
    const t = tag();
    return { name: `Race co ${t}`, email: `race-co-${t}@example.com`, planId: fx.planId, password: 'Race-Pass-1' };
  },
  'POST /api/plans': () => ({ name: `Race plan ${tag()}`, users: 5, connections: 5, queues: 5, value: 999 }),
  'POST /api/helps': () => ({ title: `Race help ${tag()}`, description: 'd', video: 'v' }),
  'POST /api/users': () => ({ name: 'Race user', email: `race-user-${tag()}@example.com`, password: 'Race-Pass-1' }),
  'POST /api/tickets': () => ({ contactId: fx.contactId, status: 'open' }),
  'POST /api/whatsapp': () => ({ name: `Race conn ${tag()}` }),
  'POST /api/contacts': () => ({ name: 'Race contact', number: phone() }),
  'POST /api/queue': () => ({ name: `Race queue ${tag()}`, color: `#${tag()}` }),
  'POST /api/queue-options': () => ({ queueId: fx.queueId, title: `Race option ${tag()}`, option: '7' }),
  'POST /api/quick-messages': () => ({ shortcode: `race${tag()}`, message: 'Race message', geral: true }),
  'POST /api/schedules': () => ({
    body: 'A race schedule text',
    contactId: fx.contactId,
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  'POST /api/files': () => ({ name: `Race files ${tag()}`, message: 'm', options: [{ name: 'one' }] }),
  'POST /api/tags': () => ({ name: `Race tag ${tag()}` }),
  'POST /api/ticket-notes': () => ({ note: 'A race note', ticketId: fx.ticketId, contactId: fx.ticketContactId }),
  'POST /api/prompt': () => ({
    name: `Race prompt ${tag()}`,
    prompt: 'Answer the customers of this company politely, briefly and in their own language.',
    model: 'gpt-4o-mini',
    maxTokens: 100,
    temperature: 1,
    apiKey: 'sk-race-key-000000000000',
    queueId: fx.queueId,
    maxMessages: 10,
  }),
  'POST /api/announcements': () => ({ title: `Race news ${tag()}`, text: 'Race text', priority: 1, status: true }),
  'POST /api/chats': () => ({ title: `Race chat ${tag()}`, users: [{ id: fx.userId }] }),
  'POST /api/queueIntegration': () => ({
    type: 'webhook',
    name: `Race hook ${tag()}`,
    urlN8N: 'https://race.example/hook',
  }),
  'POST /api/campaign-settings': () => ({ settings: { messageInterval: 20 } }),
  'POST /api/campaigns': () => ({ name: `Race campaign ${tag()}`, message1: 'Race' }),
  'POST /api/flowbuilder': () => ({ name: `Race flow ${tag()}` }),
  'POST /api/flowbuilder/duplicate': () => ({ flowId: fx.flowId }),
  'POST /api/flowcampaign': () => ({
    name: `Race phrase ${tag()}`,
    flowId: fx.flowId,
    whatsappId: fx.connectionId,
    phrase: `race ${tag()}`,
  }),
  'POST /api/contact-lists': () => ({ name: `Race list ${tag()}` }),
  'POST /api/contact-list-items': () => ({
    name: 'Race item',
    number: phone(),
    contactListId: fx.contactListId,
  }),
});
