import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAnnouncement,
  addChat,
  addContact,
  addContactList,
  addContactListItem,
  addFailedDelivery,
  addFileList,
  addFlow,
  addInvoice,
  addOption,
  addPhraseCampaign,
  addQueue,
  addQuickMessage,
  addSchedule,
  addTag,
  addTicket,
  SAMPLE_PDF,
  uploadListFiles,
  uploadQuickMedia,
  uploadScheduleMedia,
} from './catalogue-fixtures';
import { createLoggedUser, createUser, openSocket, recordEvents, type TTenant, unique } from './fixtures';
import { startTestServer, type TTestServer } from './harness';
import { MISSING_ID, type TTenancyCase, tenancySuite } from './tenancy';

/**
 * The cross-tenant suite over contacts, queues, queue options, quick messages, tags, ticket notes, chats and file lists; and
 * announcements, global by design: every company reads the active ones and no company writes them.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** a ticket as the database holds it, with its tags and notes */
const readTicket = async (s: TTestServer, _tenant: TTenant, id: number) => {
  const q = async (sql: string) => (await s.database.executeSql(sql, [id])).rows;

  return {
    ticket: await q('select id, status, contact_id, queue_id, user_id, updated_at from tickets where id = $1'),
    tags: await q('select tag_id from ticket_tags where ticket_id = $1 order by tag_id'),
    notes: await q('select id, note from ticket_notes where ticket_id = $1 order by id'),
  };
};

const CASES: TTenancyCase[] = [
  {
    name: 'a contact',
    create: async (s, t) => (await addContact(s, t, { name: 'Beta Customer Marker' })).id,
    routes: [
      { method: 'GET', path: (id) => `/api/contacts/${id}` },
      { method: 'PUT', path: (id) => `/api/contacts/${id}`, body: { name: 'Hijacked', extraInfo: [] } },
      { method: 'PUT', path: (id) => `/api/contacts/toggleDisableBot/${id}` },
      { method: 'DELETE', path: (id) => `/api/contacts/${id}` },
    ],
  },
  {
    name: 'a queue',
    create: async (s, t) => (await addQueue(s, t, { name: unique('Beta Queue') })).id,
    routes: [
      { method: 'GET', path: (id) => `/api/queue/${id}` },
      { method: 'PUT', path: (id) => `/api/queue/${id}`, body: { name: 'Hijacked', greetingMessage: 'x' } },
      { method: 'PUT', path: (id) => `/api/queue/${id}`, body: { autoAssign: true, autoAssignMax: 1 } },
      { method: 'GET', path: (id) => `/api/queue-options?queueId=${id}&parentId=-1` },
      { method: 'DELETE', path: (id) => `/api/queue/${id}` },
    ],
  },
  {
    name: 'a queue option',
    create: async (s, t) => {
      const queue = await addQueue(s, t);
      return (await addOption(s, t, { queueId: queue.id, title: 'Beta Option Marker' })).id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/queue-options/${id}` },
      { method: 'PUT', path: (id) => `/api/queue-options/${id}`, body: { title: 'Hijacked', option: '9' } },
      { method: 'DELETE', path: (id) => `/api/queue-options/${id}` },
    ],
  },
  {
    name: 'a quick message',
    create: async (s, t) => {
      const { id } = await addQuickMessage(s, t.token, { shortcode: unique('beta-marker'), geral: true });
      // with a file attached, so that a removal by A would show in B's read
      expect((await uploadQuickMedia(s, t.token, id)).status).toBe(200);

      return id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/quick-messages/${id}` },
      { method: 'PUT', path: (id) => `/api/quick-messages/${id}`, body: { message: 'Hijacked' } },
      // the owner is checked before the body is read: a JSON body gets the same 404 as a file would
      { method: 'POST', path: (id) => `/api/quick-messages/${id}/media-upload`, body: {} },
      { method: 'DELETE', path: (id) => `/api/quick-messages/${id}/media-upload` },
      { method: 'DELETE', path: (id) => `/api/quick-messages/${id}` },
    ],
  },
  {
    name: 'a schedule',
    create: async (s, t) => {
      const { id } = await addSchedule(s, t, { body: unique('Beta schedule marker') });
      // with an image attached, so that a removal by A would show in B's read
      expect((await uploadScheduleMedia(s, t.token, id)).status).toBe(200);

      return id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/schedules/${id}` },
      { method: 'PUT', path: (id) => `/api/schedules/${id}`, body: { body: 'Hijacked schedule' } },
      { method: 'POST', path: (id) => `/api/schedules/${id}/media-upload`, body: {} },
      { method: 'DELETE', path: (id) => `/api/schedules/${id}/media-upload` },
      { method: 'DELETE', path: (id) => `/api/schedules/${id}` },
    ],
  },
  {
    name: 'a tag',
    create: async (s, t) => (await addTag(s, t, { name: unique('Beta Tag'), kanban: 1 })).id,
    routes: [
      { method: 'GET', path: (id) => `/api/tags/${id}` },
      { method: 'PUT', path: (id) => `/api/tags/${id}`, body: { name: 'Hijacked' } },
      { method: 'DELETE', path: (id) => `/api/tags/${id}` },
    ],
  },
  {
    name: 'a ticket (tags and notes)',
    create: async (s, t) => {
      const { ticketId, contactId } = await addTicket(s, t);
      const tag = await addTag(s, t);
      await s.request('POST', '/api/tags/sync', { token: t.token, body: { ticketId, tags: [{ id: tag.id }] } });
      await s.request('POST', '/api/ticket-notes', {
        token: t.token,
        body: { ticketId, contactId, note: 'Beta note' },
      });
      return ticketId;
    },
    read: readTicket,
    routes: [
      { method: 'GET', path: (id) => `/api/ticket-notes/list?ticketId=${id}&contactId=1` },
      { method: 'DELETE', path: (id) => `/api/ticket-tags/${id}` },
      { method: 'PUT', path: (id) => `/api/ticket-tags/${id}/1` },
    ],
  },
  {
    name: 'a ticket note',
    create: async (s, t) => {
      const { ticketId, contactId } = await addTicket(s, t);
      const res = await s.request('POST', '/api/ticket-notes', {
        token: t.token,
        body: { ticketId, contactId, note: 'Beta Note Marker' },
      });
      return res.body.id;
    },
    read: async (s, _t, id) => (await s.database.executeSql('select * from ticket_notes where id = $1', [id])).rows,
    routes: [{ method: 'DELETE', path: (id) => `/api/ticket-notes/${id}` }],
  },
  {
    name: 'an internal chat',
    create: async (s, t) => {
      const { chat, member } = await addChat(s, t, 'Beta Chat Marker');
      await s.request('POST', `/api/chats/${chat.id}/messages`, { token: t.token, body: { message: 'Beta secret' } });
      await s.request('POST', `/api/chats/${chat.id}/read`, { token: t.token, body: { userId: member.id } });
      return chat.id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/chats/${id}` },
      { method: 'GET', path: (id) => `/api/chats/${id}/messages` },
      { method: 'POST', path: (id) => `/api/chats/${id}/messages`, body: { message: 'Hijacked' } },
      { method: 'POST', path: (id) => `/api/chats/${id}/read`, body: {} },
      { method: 'PUT', path: (id) => `/api/chats/${id}`, body: { title: 'Hijacked' } },
      { method: 'DELETE', path: (id) => `/api/chats/${id}` },
    ],
  },
  {
    name: 'a contact list',
    create: async (s, t) => {
      const list = await addContactList(s, t, { name: unique('Beta List Marker') });
      await addContactListItem(s, t, list.id, { name: 'Beta Item Marker' });
      return list.id;
    },
    read: async (s, _t, id) => ({
      list: (await s.database.executeSql('select id, name, updated_at from contact_lists where id = $1', [id])).rows,
      items: (
        await s.database.executeSql(
          'select id, name, number, is_whatsapp_valid from contact_list_items where contact_list_id = $1 order by id',
          [id],
        )
      ).rows,
    }),
    routes: [
      { method: 'GET', path: (id) => `/api/contact-lists/${id}` },
      { method: 'GET', path: (id) => `/api/contact-list-items?contactListId=${id}` },
      { method: 'PUT', path: (id) => `/api/contact-lists/${id}`, body: { name: 'Hijacked' } },
      { method: 'POST', path: (id) => `/api/contact-lists/${id}/check` },
      // the list is checked before the body is read: a JSON body gets the same 404 as a file would
      { method: 'POST', path: (id) => `/api/contact-lists/${id}/upload`, body: {} },
      { method: 'DELETE', path: (id) => `/api/contact-lists/${id}` },
    ],
  },
  {
    name: 'a contact list item',
    create: async (s, t) => {
      const list = await addContactList(s, t);
      return (await addContactListItem(s, t, list.id, { name: 'Beta Item Marker' })).id;
    },
    read: async (s, _t, id) =>
      (await s.database.executeSql('select * from contact_list_items where id = $1', [id])).rows,
    routes: [
      { method: 'GET', path: (id) => `/api/contact-list-items/${id}` },
      {
        method: 'PUT',
        path: (id) => `/api/contact-list-items/${id}`,
        body: { name: 'Hijacked', number: '5511900001111' },
      },
      { method: 'POST', path: (id) => `/api/contact-list-items/${id}/check` },
      { method: 'DELETE', path: (id) => `/api/contact-list-items/${id}` },
    ],
  },
  {
    name: 'a campaign',
    create: async (s, t) => {
      const res = await s.request('POST', '/api/campaigns', {
        token: t.token,
        body: { name: unique('Beta Campaign').slice(0, 40), message1: 'Beta campaign marker' },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/campaigns/${id}` },
      { method: 'GET', path: (id) => `/api/campaigns/${id}/report` },
      { method: 'PUT', path: (id) => `/api/campaigns/${id}`, body: { name: 'Hijacked' } },
      { method: 'POST', path: (id) => `/api/campaigns/${id}/cancel` },
      { method: 'POST', path: (id) => `/api/campaigns/${id}/restart` },
      // the campaign is checked before the body is read: a JSON body gets the same 404 as a file would
      { method: 'POST', path: (id) => `/api/campaigns/${id}/media-upload`, body: {} },
      { method: 'DELETE', path: (id) => `/api/campaigns/${id}/media-upload` },
      { method: 'DELETE', path: (id) => `/api/campaigns/${id}` },
    ],
  },
  {
    name: 'a flow',
    create: async (s, t) => (await addFlow(s, t, unique('Beta Flow Marker').slice(0, 40))).id,
    read: async (s, _t, id) =>
      (
        await s.database.executeSql(
          'select name, active, flow, variables, updated_at from flow_builders where id = $1',
          [id],
        )
      ).rows,
    markers: async (s, _t, id) =>
      (await s.database.executeSql('select name from flow_builders where id = $1', [id])).rows.map(
        (r) => (r as { name: string }).name,
      ),
    routes: [
      { method: 'GET', path: (id) => `/api/flowbuilder/${id}` },
      { method: 'GET', path: (id) => `/api/flowbuilder/flow/${id}` },
      { method: 'PUT', path: () => '/api/flowbuilder', body: (id: number) => ({ flowId: id, name: 'Hijacked' }) },
      { method: 'PUT', path: () => '/api/flowbuilder', body: (id: number) => ({ flowId: id, active: false }) },
      { method: 'POST', path: () => '/api/flowbuilder/duplicate', body: (id: number) => ({ flowId: id }) },
      {
        method: 'POST',
        path: () => '/api/flowbuilder/flow',
        body: (id: number) => ({ idFlow: id, nodes: [], connections: [] }),
      },
      { method: 'POST', path: (id) => `/api/flowbuilder/${id}/test-run`, body: {} },
      { method: 'DELETE', path: (id) => `/api/flowbuilder/${id}` },
    ],
  },
  {
    name: 'a phrase campaign',
    create: async (s, t) => (await addPhraseCampaign(s, t, unique('Beta phrase marker'))).id,
    markers: async (s, _t, id) =>
      (await s.database.executeSql('select phrase from flow_campaigns where id = $1', [id])).rows.map(
        (r) => (r as { phrase: string }).phrase,
      ),
    routes: [
      { method: 'GET', path: (id) => `/api/flowcampaign/${id}` },
      {
        method: 'PUT',
        path: () => '/api/flowcampaign',
        body: (id: number) => ({ id, name: 'Hijacked', status: false }),
      },
      { method: 'DELETE', path: (id) => `/api/flowcampaign/${id}` },
    ],
  },
  {
    name: 'a flow run',
    create: async (s, t) => {
      const flow = await addFlow(s, t);
      await s.database.executeSql('insert into whatsapps (company_id, name) values ($1, $2)', [
        t.companyId,
        unique('Sandbox'),
      ]);
      const res = await s.request('POST', `/api/flowbuilder/${flow.id}/test-run`, { token: t.token, body: {} });
      expect(res.status).toBe(201);
      return res.body.runId;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/flowbuilder/run/${id}` },
      { method: 'DELETE', path: (id) => `/api/flowbuilder/run/${id}` },
    ],
  },
  {
    name: 'an AI prompt',
    create: async (s, t) => {
      const queue = await addQueue(s, t, { name: unique('Beta Prompt Queue') });
      const res = await s.request('POST', '/api/prompt', {
        token: t.token,
        body: {
          name: unique('Beta Prompt Marker'),
          prompt: 'Beta prompt marker: answer the customers of this company politely and briefly.',
          model: 'gpt-4o-mini',
          maxTokens: 100,
          temperature: 1,
          apiKey: 'sk-beta-secret-key-000000',
          queueId: queue.id,
          maxMessages: 10,
        },
      });
      expect(res.status).toBe(200);
      return res.body.id;
    },
    read: async (s, _t, id) => (await s.database.executeSql('select * from prompts where id = $1', [id])).rows,
    routes: [
      { method: 'GET', path: (id) => `/api/prompt/${id}` },
      { method: 'GET', path: (id) => `/api/prompt/models?promptId=${id}` },
      { method: 'PUT', path: (id) => `/api/prompt/${id}`, body: { name: 'Hijacked prompt' } },
      { method: 'DELETE', path: (id) => `/api/prompt/${id}` },
    ],
  },
  {
    name: 'a queue integration',
    create: async (s, t) => {
      const res = await s.request('POST', '/api/queueIntegration', {
        token: t.token,
        body: { type: 'webhook', name: unique('Beta Hook').slice(0, 40), urlN8N: 'https://beta.example/hook' },
      });
      expect(res.status).toBe(201);
      return res.body.id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/queueIntegration/${id}` },
      { method: 'GET', path: (id) => `/api/queueIntegration/${id}/deliveries` },
      {
        method: 'PUT',
        path: (id) => `/api/queueIntegration/${id}`,
        body: { type: 'webhook', name: 'Hijacked', urlN8N: 'https://evil.example' },
      },
      { method: 'DELETE', path: (id) => `/api/queueIntegration/${id}` },
    ],
  },
  {
    name: 'a file list',
    create: async (s, t) => {
      const list = await addFileList(s, t, { name: unique('Beta Files Marker') });
      // with a stored file, so that a removal by A would show in B's read
      const up = await uploadListFiles(s, t.token, list.id, [
        { optionId: list.options[0].id, name: 'Beta file', data: SAMPLE_PDF },
      ]);
      expect(up.status).toBe(200);

      return list.id;
    },
    routes: [
      { method: 'GET', path: (id) => `/api/files/${id}` },
      { method: 'PUT', path: (id) => `/api/files/${id}`, body: { name: 'Hijacked', message: 'Hijacked', options: [] } },
      // the owner is checked before the body is read: a JSON body gets the same 404 as files would
      { method: 'POST', path: (id) => `/api/files/uploadList/${id}`, body: {} },
      { method: 'DELETE', path: (id) => `/api/files/${id}` },
    ],
  },
  {
    name: 'a failed delivery',
    create: (s, t) => addFailedDelivery(s, t, 'Beta Delivery Marker'),
    read: async (s, _t, id) =>
      (await s.database.executeSql('select id, status, attempts, payload from inbound_deliveries where id = $1', [id]))
        .rows,
    routes: [
      { method: 'POST', path: (id) => `/api/failed-deliveries/${id}/retry` },
      { method: 'DELETE', path: (id) => `/api/failed-deliveries/${id}` },
    ],
  },
  {
    name: 'an invoice',
    create: (s, t) => addInvoice(s, t),
    routes: [{ method: 'GET', path: (id) => `/api/invoices/${id}` }],
  },
];

// the lists are checked below with markers of their own (these answers carry no companyId)
tenancySuite(() => server, CASES, { lists: [] });

describe('cross-tenant ids inside bodies and queries, and the lists', () => {
  let a: TTenant;
  let b: TTenant;
  beforeAll(async () => {
    a = await server.createTenant('Alpha');
    b = await server.createTenant('Beta');
  });

  /** A's request with B's id answers exactly as with a missing id */
  const sameAsMissing = async (method: string, make: (id: number) => { path: string; body?: unknown }, id: number) => {
    const missing = make(MISSING_ID);
    const foreign = make(id);
    const m = await server.request(method, missing.path, { token: a.token, body: missing.body });
    const f = await server.request(method, foreign.path, { token: a.token, body: foreign.body });
    expect(m.status, `${method} ${missing.path}`).toBe(404);
    expect(f, `${method} ${foreign.path}`).toMatchObject({ status: m.status, body: m.body });
  };

  it("A can not hang options under B's queue or options", async () => {
    const bQueue = await addQueue(server, b);
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/queue-options', body: { queueId: id, title: 'Evil' } }),
      bQueue.id,
    );
    const bOption = await addOption(server, b, { queueId: bQueue.id });
    const aQueue = await addQueue(server, a);
    const res = await server.request('POST', '/api/queue-options', {
      token: a.token,
      body: { queueId: aQueue.id, parentId: bOption.id, title: 'Evil child' },
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    // nor read the children of B's option through a queue of its own
    await addOption(server, b, { queueId: bQueue.id, parentId: bOption.id, title: 'Beta Child Marker' });
    const level = await server.request('GET', '/api/queue-options', {
      token: a.token,
      query: { queueId: aQueue.id, parentId: bOption.id },
    });
    expect(level).toMatchObject({ status: 200, body: [] });
    // and the options it did not get to change are as they were
    const bLevel = await server.request('GET', '/api/queue-options', {
      token: b.token,
      query: { queueId: bQueue.id, parentId: -1 },
    });
    expect(bLevel.body.map((o: { id: number; option: string }) => [o.id, o.option])).toEqual([[bOption.id, '1']]);
  });

  it("A can not pay B's invoice nor list B's invoices, whatever companyId is sent", async () => {
    const bInvoice = await addInvoice(server, b, 'Beta Invoice Marker');
    // the invoice is looked for before anything else (this server has no payment provider configured)
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/subscription', body: { invoiceId: id, cpfCnpj: '52998224725' } }),
      bInvoice,
    );
    for (const path of ['/api/invoices', '/api/invoices/all']) {
      const res = await server.request('GET', path, { token: a.token, query: { companyId: b.companyId } });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain('Beta Invoice Marker');
    }
    // nor mark it paid: that is the super user's alone
    const put = await server.request('PUT', `/api/invoices/${bInvoice}`, { token: a.token, body: { status: 'paid' } });
    expect(put.status).toBe(403);
    const [row] = (await server.database.executeSql('select status from invoices where id = $1', [bInvoice])).rows;
    expect(row).toEqual({ status: 'open' });
  });

  it("A can not tag B's tickets, use B's tags, or note B's tickets", async () => {
    const bTicket = await addTicket(server, b);
    const bTag = await addTag(server, b);
    const aTicket = await addTicket(server, a);
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/tags/sync', body: { ticketId: id, tags: [] } }),
      bTicket.ticketId,
    );
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/tags/sync', body: { ticketId: aTicket.ticketId, tags: [{ id }] } }),
      bTag.id,
    );
    await sameAsMissing('PUT', (id) => ({ path: `/api/ticket-tags/${aTicket.ticketId}/${id}` }), bTag.id);
    const bLane = await addTag(server, b, { kanban: 1 });
    await sameAsMissing('GET', (id) => ({ path: `/api/ticket/kanban?lane=${id}` }), bLane.id);
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/ticket-notes', body: { ticketId: id, contactId: bTicket.contactId, note: 'Evil note' } }),
      bTicket.ticketId,
    );
    expect(
      (
        await server.database.executeSql('select count(*)::int as n from ticket_tags where ticket_id = $1', [
          aTicket.ticketId,
        ])
      ).rows[0],
    ).toEqual({ n: 0 });
  });

  it("A can not add items to B's list, read B's items or import into B's list", async () => {
    const bList = await addContactList(server, b);
    await addContactListItem(server, b, bList.id, { name: 'Beta Item Marker' });
    await sameAsMissing(
      'POST',
      (id) => ({ path: '/api/contact-list-items', body: { name: 'Evil', number: '5511900002222', contactListId: id } }),
      bList.id,
    );
    await sameAsMissing('GET', (id) => ({ path: `/api/contact-list-items?contactListId=${id}` }), bList.id);
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob([Buffer.from('nome;numero\nEvil Row;5511900003333\n')]), 'evil.csv');
      return f;
    };
    const answers = [];
    for (const id of [bList.id, MISSING_ID]) {
      const res = await fetch(`${server.url}/api/contact-lists/${id}/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}` },
        body: form(),
      });
      answers.push({ status: res.status, body: await res.json() });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].status).toBe(404);
    const { rows } = await server.database.executeSql(
      'select name from contact_list_items where contact_list_id = $1 order by id',
      [bList.id],
    );
    expect(rows).toEqual([{ name: 'Beta Item Marker' }]);
  });

  it("A's chat unread total counts A's chats only, whatever companyId is sent", async () => {
    const unreadsFor = async (t: TTenant) => {
      const writer = await createLoggedUser(server, t, { name: 'Writer' });
      const res = await server.request('POST', '/api/chats', {
        token: writer.token,
        body: { title: unique('Unread'), users: [{ id: t.user.id }] },
      });
      for (const message of ['one', 'two']) {
        await server.request('POST', `/api/chats/${res.body.id}/messages`, { token: writer.token, body: { message } });
      }
      return res.body.id as number;
    };
    const aChat = await unreadsFor(a);
    const bChat = await unreadsFor(b);
    await unreadsFor(b);
    const res = await server.request('GET', '/api/chats/unreads', {
      token: a.token,
      query: { companyId: b.companyId },
    });
    expect(res.status).toBe(200);
    const ids = res.body.chats.map((chat: { chatId: number }) => chat.chatId);
    expect(ids).toContain(aChat);
    expect(ids).not.toContain(bChat);
    expect(res.body.unreads).toBe(
      res.body.chats.reduce((sum: number, chat: { unreads: number }) => sum + chat.unreads, 0),
    );
    const bRes = await server.request('GET', '/api/chats/unreads', { token: b.token });
    expect(bRes.body.unreads).toBe(4);
  });

  it("A's lists hold A's rows and nothing of B's", async () => {
    const mine = `alpha-${a.companyId}`;
    const theirs = `beta-${b.companyId}`;
    for (const [t, label] of [
      [a, mine],
      [b, theirs],
    ] as const) {
      await addContact(server, t, { name: `${label} contact` });
      await addQueue(server, t, { name: `${label} queue` });
      await addTag(server, t, { name: `${label} tag`, kanban: 1 });
      await addQuickMessage(server, t.token, { shortcode: `${label}-qm`, geral: true });
      await addFailedDelivery(server, t, `${label} delivery`);
      await addChat(server, t, `${label} chat`);
      await addSchedule(server, t, { body: `${label} schedule` });
      await addContactList(server, t, { name: `${label} list` });
      await server.request('POST', '/api/campaigns', { token: t.token, body: { name: `${label} campaign` } });
      await server.request('POST', '/api/campaign-settings', {
        token: t.token,
        body: { settings: { variables: [{ key: 'marker', value: `${label} variable` }] } },
      });
      await addFileList(server, t, { name: `${label} files` });
      await addFlow(server, t, `${label} flow`);
      await addPhraseCampaign(server, t, `${label} phrase`);
      const promptQueue = await addQueue(server, t, { name: `${label} pq` });
      await server.request('POST', '/api/prompt', {
        token: t.token,
        body: {
          name: `${label} prompt`,
          prompt: `${label} prompt text, long enough for the fifty character minimum.`,
          model: 'gpt-4o-mini',
          maxTokens: 100,
          temperature: 1,
          apiKey: 'sk-list-key',
          queueId: promptQueue.id,
          maxMessages: 10,
        },
      });
    }
    const aTicket = await addTicket(server, a, { status: 'pending' });
    const bTicket = await addTicket(server, b, { status: 'pending' });
    await server.database.executeSql('update contacts set name = $2 where id = $1', [
      aTicket.contactId,
      `${mine} card`,
    ]);
    await server.database.executeSql('update contacts set name = $2 where id = $1', [
      bTicket.contactId,
      `${theirs} card`,
    ]);
    for (const path of [
      '/api/ticket/kanban',
      '/api/ticket/kanban?perLane=50&showAll=true',
      '/api/ticket/kanban?lane=open',
      '/api/contacts',
      '/api/contacts/list',
      '/api/queue',
      '/api/tags',
      '/api/tags/list',
      '/api/tags/kanban',
      '/api/quick-messages',
      '/api/quick-messages/list',
      '/api/failed-deliveries',
      '/api/chats',
      '/api/schedules',
      '/api/contact-lists',
      '/api/contact-lists/list',
      '/api/campaigns',
      '/api/campaign-settings',
      '/api/files',
      '/api/files/list',
      '/api/flowbuilder',
      '/api/flowcampaign',
      '/api/prompt',
    ]) {
      const res = await server.request('GET', path, { token: a.token, query: { companyId: b.companyId } });
      expect(res.status, path).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text, `${path} shows A's rows`).toContain(mine);
      expect(text, `${path} leaks B's rows`).not.toContain(theirs);
    }
  });
});

describe('automatic assignment and the away switch stay within a company', () => {
  it("A's agent pauses itself only: B's users are unchanged and B's sockets hear nothing", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const agentA = await createLoggedUser(server, a, { name: 'Alpha Agent' });
    const agentB = await createLoggedUser(server, b, { name: 'Beta Agent' });
    const listen = await openSocket(server, b.token);
    const heard = recordEvents(listen);
    const readB = async () => (await server.request('GET', `/api/users/${agentB.id}`, { token: b.token })).body;
    const before = await readB();
    // B's ids or company in the body change nothing of B's: the route acts on the caller alone
    for (const body of [{ away: true }, { away: true, userId: agentB.id }, { away: true, companyId: b.companyId }]) {
      const res = await server.request('PUT', '/api/users/me/away', { token: agentA.token, body });
      expect([200, 404], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) expect(res.body).toMatchObject({ id: agentA.id, away: true });
    }
    expect(await readB()).toEqual(before);
    const { rows } = await server.database.executeSql('select away from users where company_id = $1', [b.companyId]);
    expect(rows.every((r) => (r as { away: boolean }).away === false)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.heard.filter((h) => JSON.stringify(h.payload).includes('Alpha Agent'))).toEqual([]);
    listen.disconnect();
  });
});

describe("the dashboard counts the caller's company only", () => {
  it("A's dashboard and charts show A's attendants and cycles, never B's, whatever companyId is sent", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const mine = `alpha-${a.companyId}`;
    const theirs = `beta-${b.companyId}`;
    // a UTC day either side: "now" is on one of them in any company zone
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const finish = async (t: TTenant, label: string, cycles: number) => {
      const user = await createUser(server, t, { name: `${label} agent` });
      for (let i = 0; i < cycles; i += 1) {
        const { ticketId } = await addTicket(server, t, { status: 'closed' });
        await server.database.executeSql(
          `insert into ticket_trackings (company_id, ticket_id, user_id, queued_at, started_at, finished_at)
           values ($1, $2, $3, now() - interval '30 minutes', now() - interval '20 minutes', now())`,
          [t.companyId, ticketId, user.id],
        );
      }
    };
    await finish(a, mine, 1);
    await finish(b, theirs, 3);
    for (const [path, query] of [
      ['/api/dashboard', { days: 3 }],
      ['/api/dashboard/ticketsUsers', { initialDate: yesterday, finalDate: tomorrow }],
    ] as const) {
      const res = await server.request('GET', path, { token: a.token, query: { ...query, companyId: b.companyId } });
      expect(res.status, path).toBe(200);
      const text = JSON.stringify(res.body);
      expect(text, `${path} shows A's attendants`).toContain(mine);
      expect(text, `${path} leaks B's attendants`).not.toContain(theirs);
    }
    const dash = await server.request('GET', '/api/dashboard', {
      token: a.token,
      query: { days: 3, companyId: b.companyId },
    });
    expect(dash.body.counters.supportFinished).toBe(1);
    const week = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const perDay = await server.request('GET', '/api/dashboard/ticketsDay', {
      token: a.token,
      query: { initialDate: week, finalDate: tomorrow, companyId: b.companyId },
    });
    expect(perDay.body.count).toBe(1);
  });
});

describe("the reports count the caller's company only", () => {
  it("A's reports show A's conversations, agents and ratings, never B's, whatever companyId or B's ids are sent", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const mine = `alpha-${a.companyId}`;
    const theirs = `beta-${b.companyId}`;
    const window = {
      from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
      to: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    };
    const seed = async (t: TTenant, label: string, cycles: number) => {
      const user = await createUser(server, t, { name: `${label} agent` });
      const queue = await addQueue(server, t, { name: unique(`${label} queue`) });
      for (let i = 0; i < cycles; i += 1) {
        const { ticketId } = await addTicket(server, t, { status: 'closed' });
        const { rows } = await server.database.executeSql(
          `insert into ticket_trackings (company_id, ticket_id, user_id, queue_id, created_at, first_reply_at,
                                         first_reply_user_id, finished_at, first_response_s, first_response_bs,
                                         resolution_s, resolution_bs)
           values ($1, $2, $3, $4, now() - interval '30 minutes', now() - interval '20 minutes', $3, now(), 600, 600,
                   1800, 1800) returning id`,
          [t.companyId, ticketId, user.id, queue.id],
        );
        await server.database.executeSql(
          'insert into user_ratings (company_id, ticket_id, ticket_tracking_id, user_id, rate) values ($1, $2, $3, $4, 3)',
          [t.companyId, ticketId, (rows[0] as { id: number }).id, user.id],
        );
      }
      return { user, queue };
    };
    await seed(a, mine, 1);
    const beta = await seed(b, theirs, 3);
    for (const path of ['summary', 'series', 'heatmap', 'agents', 'queues', 'csat']) {
      const res = await server.request('GET', `/api/reports/${path}`, {
        token: a.token,
        query: { ...window, companyId: b.companyId },
      });
      expect(res.status, path).toBe(200);
      expect(JSON.stringify(res.body), `${path} leaks B's rows`).not.toContain(theirs);
    }
    const summary = await server.request('GET', '/api/reports/summary', { token: a.token, query: window });
    expect(summary.body).toMatchObject({ opened: 1, resolved: 1, csat: { rated: 1 } });
    const agents = await server.request('GET', '/api/reports/agents', { token: a.token, query: window });
    expect(JSON.stringify(agents.body)).toContain(mine);
    // B's agent, queue and ids as filters: nothing of B's comes back
    const filtered = await server.request('GET', '/api/reports/summary', {
      token: a.token,
      query: { ...window, userIds: String(beta.user.id), queueIds: String(beta.queue.id) },
    });
    expect(filtered.body).toMatchObject({ opened: 0, resolved: 0, csat: { rated: 0 } });

    // the exports: every table and the conversations, as CSV and XLSX, with B's companyId and B's ids
    for (const report of ['summary', 'series', 'heatmap', 'agents', 'queues', 'csat', 'tickets']) {
      for (const format of ['csv', 'xlsx']) {
        for (const query of [{ companyId: String(b.companyId) }, { userIds: String(beta.user.id) }] as Record<
          string,
          string
        >[]) {
          const res = await server.app.inject({
            method: 'GET',
            url: '/api/reports/export',
            query: { ...window, report, format, lang: 'en', ...query },
            headers: { authorization: `Bearer ${a.token}` },
          });
          expect(res.statusCode, `${report} ${format}`).toBe(200);
          const text = format === 'csv' ? res.body : JSON.stringify(await readXlsxCells(res.rawPayload));
          expect(text, `${report} ${format} leaks B's rows`).not.toContain(theirs);
          if (report === 'agents' && !query.userIds) expect(text, 'A sees its own').toContain(mine);
        }
      }
    }
    const conversations = await server.app.inject({
      method: 'GET',
      url: '/api/reports/export',
      query: { ...window, report: 'tickets', lang: 'en', companyId: String(b.companyId) },
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(conversations.body.trim().split('\r\n')).toHaveLength(2); // the header and A's one conversation

    // the weekly e-mail opt-in: each admin its own, in its own company
    const on = await server.request('PUT', '/api/reports/weekly-mail', {
      token: a.token,
      body: { enabled: true, companyId: b.companyId, userId: b.user.id },
    });
    expect(on.body).toEqual({ enabled: true, email: a.email });
    expect((await server.request('GET', '/api/reports/weekly-mail', { token: b.token })).body).toEqual({
      enabled: false,
      email: b.email,
    });
    const rows = await server.database.executeSql(
      'select user_id, company_id from report_mail_optins where company_id = any($1::int[])',
      [[a.companyId, b.companyId]],
    );
    expect(rows.rows).toEqual([{ user_id: a.user.id, company_id: a.companyId }]);
  });
});

/** every cell value of an .xlsx's first sheet */
const readXlsxCells = async (data: Buffer) => {
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  await book.xlsx.load(data as unknown as ArrayBuffer);
  const values: unknown[] = [];
  book.worksheets[0]?.eachRow((row) => row.eachCell((cell) => values.push(cell.value)));

  return values;
};

describe('subscription usage and expiry stay within a company', () => {
  it("A's usage counts A's rows whatever companyId is sent, and B past due pauses B only", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    for (let i = 0; i < 3; i++) await addQueue(server, b, { name: unique('Beta usage queue') });
    await addQueue(server, a, { name: unique('Alpha usage queue') });
    const mine = await server.request('GET', '/api/subscription/usage', {
      token: a.token,
      query: { companyId: b.companyId },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.company).toMatchObject({ id: a.companyId, name: a.company.name });
    expect(mine.body.usage).toMatchObject({ users: 1, queues: 1 });
    expect(JSON.stringify(mine.body)).not.toContain(b.company.name);

    const superToken = (await server.superLogin()).token;
    await server.request('PUT', `/api/companies/${b.companyId}`, {
      token: superToken,
      body: { dueDate: '2020-01-01' },
    });
    expect((await server.request('GET', '/api/queue', { token: b.token })).status).toBe(402);
    expect((await server.request('GET', '/api/queue', { token: a.token })).status).toBe(200);
    const bUsage = await server.request('GET', '/api/subscription/usage', { token: b.token });
    expect(bUsage.body.company).toMatchObject({ id: b.companyId, payOnly: true });
    expect(bUsage.body.usage).toMatchObject({ users: 1, queues: 3 });
  });
});

describe('announcements are global by design: a company reads the active ones and writes none', () => {
  it("company A's admin cannot create, change, delete or attach to an announcement; each company reads the same active list", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const superToken = (await server.superLogin()).token;
    const marker = unique('global');
    const shown = await addAnnouncement(server, superToken, { title: `${marker} shown` });
    const draft = await addAnnouncement(server, superToken, { title: `${marker} draft`, status: false });
    const readRow = async (id: number) =>
      (
        await server.database.executeSql('select title, text, status, media_path from announcements where id = $1', [
          id,
        ])
      ).rows[0];
    const before = [await readRow(shown.id), await readRow(draft.id)];
    const total = async () =>
      (await server.database.executeSql('select count(*)::int as n from announcements')).rows[0] as { n: number };
    const count = await total();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])]), 'a.png');
    for (const id of [shown.id, draft.id, MISSING_ID]) {
      for (const [method, path, body] of [
        ['POST', '/api/announcements', { title: 'Hijacked', text: 'Hijacked', companyId: a.companyId }],
        ['PUT', `/api/announcements/${id}`, { title: 'Hijacked', status: true }],
        ['DELETE', `/api/announcements/${id}`],
        ['DELETE', `/api/announcements/${id}/media-upload`],
      ] as const) {
        const res = await server.request(method, path, { token: a.token, body });
        expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
      }
      const upload = await fetch(`${server.url}/api/announcements/${id}/media-upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}` },
        body: form,
      });
      expect(upload.status).toBe(403);
    }
    expect([await readRow(shown.id), await readRow(draft.id)]).toEqual(before);
    expect(await total()).toEqual(count);

    const lists = [];
    for (const t of [a, b]) {
      const res = await server.request('GET', '/api/announcements', { token: t.token, query: { searchParam: marker } });
      expect(res.status).toBe(200);
      lists.push(res.body.records.map((r: { id: number }) => r.id));
      // an inactive one answers like a missing one
      const hidden = await server.request('GET', `/api/announcements/${draft.id}`, { token: t.token });
      const missing = await server.request('GET', `/api/announcements/${MISSING_ID}`, { token: t.token });
      expect(hidden).toMatchObject({ status: 404, body: missing.body });
    }
    expect(lists).toEqual([[shown.id], [shown.id]]);
  });
});
