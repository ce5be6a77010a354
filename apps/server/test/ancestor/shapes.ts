/**
 * The request shapes of the ancestor's web client (Atendechat v8, github:f12tecnologia/Atendechat-8 at
 * 6c9165c, folder frontend/src), written down from its files: what each screen sends, field for field,
 * including the values its forms start with ("" for an unpicked select, `false` for "no connection").
 * Facts only: each shape names the file it was read from. `ancestor-contract.test.ts` replays them.
 */

/** the working hours its queue dialog starts with (components/QueueModal) */
export const queueSchedules = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

/**
 * moment's "YYYY-MM-DD HH:mm:ss" of an instant as a browser in the company's zone shows it (the companies of
 * these cases keep the default America/Sao_Paulo); the server reads such a zone-less time in that zone
 */
export const wallClock = (at: Date, timeZone = 'America/Sao_Paulo') => {
  const f = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );

  return `${f.year}-${f.month}-${f.day} ${f.hour}:${f.minute}:${f.second}`;
};

export const shapes = {
  /** pages/Signup: the form's values plus what handleSignUp adds */
  signUp: (fields: { name: string; email: string; password: string; planId: number }) => ({
    ...fields,
    phone: '',
    recurrence: 'MENSAL',
    dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    status: 't',
    campaignsEnabled: true,
  }),

  /** components/TicketsListCustom + hooks/useTickets: one tab's list (axios drops undefined params) */
  ticketList: (status: string | undefined, queueIds: number[], searchParam = '', showAll = false) => ({
    searchParam,
    pageNumber: '1',
    tags: '[]',
    users: '[]',
    ...(status ? { status } : {}),
    showAll: String(showAll),
    queueIds: JSON.stringify(queueIds),
  }),

  /** components/TicketListItemCustom handleAcepptTicket */
  accept: (userId: number) => ({ status: 'open', userId }),
  /** components/TicketActionButtonsCustom handleUpdateTicketStatus(e, "pending", null): return to waiting */
  returnToWaiting: (ticket: { useIntegration: boolean; promptId: number | null; integrationId: number | null }) => ({
    status: 'pending',
    userId: null,
    useIntegration: ticket.useIntegration,
    promptId: ticket.promptId,
    integrationId: ticket.integrationId,
  }),
  /** components/TicketActionButtonsCustom handleUpdateTicketStatus(e, "closed", user.id): the header's Resolve */
  resolveFromHeader: (userId: number) => ({
    status: 'closed',
    userId,
    useIntegration: false,
    promptId: false,
    integrationId: false,
  }),
  /** components/TicketListItemCustom handleCloseTicket: Resolve from the list */
  resolveFromList: (userId: number, queueId: number | undefined) => ({
    status: 'closed',
    userId,
    queueId,
    useIntegration: false,
    promptId: null,
    integrationId: null,
  }),
  /** components/TicketListItemCustom handleReopenTicket */
  reopen: (userId: number, queueId: number | undefined) => ({ status: 'open', userId, queueId }),
  /** components/TransferTicketModalCustom handleSaveTicket: a queue and no user */
  transferToQueue: (queueId: number) => ({ queueId, status: 'pending', userId: null }),
  /** components/TransferTicketModalCustom handleSaveTicket: a user and a queue */
  transferToUser: (userId: number, queueId: number) => ({ userId, queueId }),
  /** components/NewTicketModal handleSaveTicket */
  newTicket: (contactId: number, queueId: number | null, whatsappId: number | null, userId: number) => ({
    contactId,
    queueId,
    whatsappId,
    userId,
    status: 'open',
  }),

  /** components/MessageInputCustom handleSendMessage: every reply typed in the composer */
  reply: (body: string, quotedMsg: unknown = null) => ({ read: 1, fromMe: true, mediaUrl: '', body, quotedMsg }),
  /** components/MessageInputCustom handleUploadMedia: one `medias` and one `body` (its name) per file */
  mediaForm: (files: { name: string; type: string; data: Buffer }[]) => {
    const form = new FormData();
    form.append('fromMe', 'true');
    for (const file of files) {
      form.append('medias', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
      form.append('body', file.name);
    }

    return form;
  },
  /** components/MessageInputCustom handleUploadAudio */
  audioForm: (data: Buffer) => {
    const name = `audio-record-site-${Date.now()}.mp3`;
    const form = new FormData();
    form.append('medias', new Blob([new Uint8Array(data)], { type: 'audio/mpeg' }), name);
    form.append('body', name);
    form.append('fromMe', 'true');

    return form;
  },

  /** components/ContactModal: its initial values plus the extra fields' array */
  contact: (name: string, number: string) => ({ name, number, email: '', extraInfo: [{ name: 'CPF', value: '123' }] }),
  /** components/ImportContactsModal: the spreadsheet's rows as sheet_to_json reads them */
  contactRows: (rows: { name: string; number: string }[]) => rows.map((r) => ({ Nome: r.name, Telefone: r.number })),

  /** components/UserModal handleSaveUser on create: whatsappId starts as `false` */
  newUser: (fields: { name: string; email: string; password: string }, queueIds: number[]) => ({
    ...fields,
    profile: 'user',
    allTicket: 'desabled',
    whatsappId: false,
    queueIds,
  }),
  /** components/UserModal on edit: the initial state, the loaded user over it, whatsappId "" when it has none */
  editUser: (loaded: Record<string, unknown>, queueIds: number[]) => ({
    name: '',
    email: '',
    password: '',
    profile: 'user',
    allTicket: 'desabled',
    ...loaded,
    whatsappId: loaded.whatsappId ? loaded.whatsappId : '',
    queueIds,
  }),

  /** components/QueueModal handleSaveQueue on create */
  newQueue: (name: string, color: string) => ({
    name,
    color,
    greetingMessage: '',
    outOfHoursMessage: '',
    orderQueue: '',
    integrationId: '',
    schedules: queueSchedules,
    promptId: null,
  }),
  /** components/QueueModal on edit: the loaded queue, its schedules and the prompt select */
  editQueue: (loaded: Record<string, unknown>) => ({ ...loaded, schedules: loaded.schedules, promptId: null }),
  /** components/QueueOptions addOption, as handleSave posts it */
  newOption: (queueId: number, parentId: number | null, position: number, title: string) => ({
    title,
    message: '',
    edition: false,
    option: position,
    queueId,
    parentId,
    children: [],
  }),

  /** components/QueueOptions handleOption: an option as the stepper keeps it after loading a level */
  loadedOption: (loaded: Record<string, unknown>) => ({ ...loaded, children: [], edition: false }),
  /** components/QueueOptions handleDeleteOption: each remaining sibling saved again with its new position */
  renumberedOption: (kept: Record<string, unknown>, position: number) => ({ ...kept, option: position }),
  /** components/QueueModal handleSaveSchedules then handleSaveQueue: the schedules tab's rows sent with the form */
  editedSchedules: (loaded: { weekdayEn: string }[], clearedDay: string) =>
    loaded.map((row) => (row.weekdayEn === clearedDay ? { ...row, startTime: '', endTime: '' } : row)),

  /** components/TagModal handleSaveTag: initial state, the user and the kanban switch */
  newTag: (name: string, userId: number) => ({ name, color: '', kanban: 0, userId }),
  /** components/TagModal on edit: the loaded tag with the switch */
  editTag: (loaded: Record<string, unknown>, userId: number) => ({ ...loaded, userId, kanban: loaded.kanban }),
  /** components/TagsContainer: a tag typed in the ticket's tag box */
  typedTag: (name: string) => ({ name }),

  /** components/TagModal on edit by an admin: the kanban switch turned on (handleKanbanChange: 1 or 0) */
  laneTag: (loaded: Record<string, unknown>, userId: number) => ({ ...loaded, userId, kanban: 1 }),
  /**
   * pages/Kanban fetchTickets: axios params, the user's queue ids (`user.queues[].UserQueue.queueId`) as a JSON
   * string and `showAll: profile === "admin"` (a boolean axios writes as "true"/"false")
   */
  kanbanQuery: (queueIds: number[], profile: string) => ({
    queueIds: JSON.stringify(queueIds),
    showAll: String(profile === 'admin'),
  }),

  /** pages/CampaignsConfig saveSettings: the whole settings object under `settings` */
  campaignSettings: (variables: { key: string; value: string }[]) => ({
    settings: { messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 60, variables },
  }),
  /**
   * components/CampaignModal handleSaveCampaign on create: every form field, "" turned into null, `scheduledAt` as
   * moment's "YYYY-MM-DD HH:mm:ss" (the browser's local time), `tagListId` "Nenhuma" for no tag, its `companyId`
   */
  campaign: (fields: {
    name: string;
    whatsappId: number | null;
    contactListId: number | null;
    scheduledAt: Date | null;
    companyId: number;
  }) => {
    const local = fields.scheduledAt ? wallClock(fields.scheduledAt) : null;

    return {
      name: fields.name,
      message1: 'Olá {nome}, novidades na loja {loja}!',
      message2: 'Oi {nome}!',
      message3: null,
      message4: null,
      message5: null,
      status: 'INATIVA',
      scheduledAt: local,
      whatsappId: fields.whatsappId,
      contactListId: fields.contactListId,
      tagListId: 'Nenhuma',
      companyId: fields.companyId,
    };
  },
  /** components/CampaignModal handleSaveCampaign on edit: the record as loaded (tagListId from tagId), edited */
  campaignEdit: (loaded: Record<string, unknown>, changes: Record<string, unknown>) => ({
    ...loaded,
    tagListId: loaded.tagId || 'Nenhuma',
    ...changes,
  }),
  /** components/CampaignModal handleSaveCampaign: the attachment's form after the save */
  campaignMedia: (file: { name: string; type: string; data: Buffer }) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);

    return form;
  },

  /** components/QuickMessageDialog handleSaveQuickeMessage with no attachment */
  /**
   * components/QueueIntegrationModal/index.js: its whole form state (initialState), `projectName` copied from the
   * name for every type but dialogflow, `language` left "" unless dialogflow
   */
  queueIntegration: (name: string, urlN8N: string) => ({
    type: 'typebot',
    name,
    projectName: name,
    jsonContent: '',
    language: '',
    urlN8N,
    typebotDelayMessage: 1000,
    typebotExpires: 1,
    typebotKeywordFinish: 'sair',
    typebotKeywordRestart: 'reiniciar',
    typebotRestartMessage: 'Reiniciando',
    typebotSlug: 'my-typebot',
    typebotUnknownMessage: 'Não entendi',
  }),
  quickMessage: (shortcode: string, message: string) => ({
    shortcode,
    message,
    geral: false,
    status: true,
    isMedia: true,
    mediaPath: null,
  }),

  /** components/QuickMessageDialog handleSaveQuickeMessage with an attachment chosen: the PUT's body */
  quickMessageWithFile: (loaded: Record<string, unknown>, message: string, fileName: string) => ({
    ...loaded,
    message,
    isMedia: true,
    // path.basename of the loaded mediaPath (or the chosen file's name), spaces as underscores
    mediaPath: fileName.replace(/ /g, '_'),
  }),
  /** components/QuickMessageDialog handleSaveQuickeMessage, after the save: the attachment's form */
  quickMessageMedia: (file: { name: string; type: string; data: Buffer }) => {
    const form = new FormData();
    form.append('typeArch', 'quickMessage');
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);

    return form;
  },
  /**
   * components/MessageInputCustom handleQuickAnswersClick + handleUploadQuickMessageMedia: the quick message's
   * file downloaded from its mediaPath as a blob, sent as `<time>.<subtype of the blob's type>` with its text
   */
  quickMessageSend: (blob: Blob, message: string) => {
    const form = new FormData();
    form.append('medias', blob, `${Date.now()}.${blob.type.split('/')[1]}`);
    form.append('body', message);
    form.append('fromMe', 'true');

    return form;
  },

  /** components/WhatsAppModal handleSaveWhatsApp on create: its initial state and selects */
  newConnection: (name: string, queueIds: number[]) => ({
    name,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    isDefault: false,
    token: '',
    provider: 'beta',
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    integration: null,
    queueIds,
    transferQueueId: null,
    promptId: null,
    integrationId: null,
  }),
  /** components/WhatsAppModal on edit: the loaded connection without `queues` and `session` */
  editConnection: (loaded: Record<string, unknown>, queueIds: number[]) => {
    const { queues: _q, session: _s, ...rest } = loaded;

    return {
      ...rest,
      queueIds,
      transferQueueId: loaded.transferQueueId,
      promptId: loaded.promptId ? loaded.promptId : null,
      integrationId: loaded.integrationId,
    };
  },

  /** components/CompaniesManager (super): its record with the unpicked selects */
  newCompany: (name: string, email: string, planId: number) => ({
    name,
    email,
    phone: '',
    planId,
    status: true,
    campaignsEnabled: false,
    dueDate: null,
    recurrence: '',
  }),
  /** components/PlansManager (super) */
  newPlan: (name: string) => ({
    name,
    users: 0,
    connections: 0,
    queues: 0,
    value: 0,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
  }),
  /**
   * pages/Chat/index.js ChatModal handleSave: `users` is what components/UsersFilter picked (`{id, name}` from
   * GET /users/list); on edit it starts from the chat's members, the owner included (`chat.users` mapped to
   * `{id: u.user.id, name: u.user.name}`). POST /chats on create, PUT /chats/:id on edit.
   */
  chat: (title: string, users: { id: number; name: string }[]) => ({ users, title }),
  /** pages/Chat/index.js sendMessage: POST /chats/:id/messages */
  chatMessage: (message: string) => ({ message }),
  /** pages/Chat/ChatList.js goToMessages and ChatMessages.js: POST /chats/:id/read with the reader's own id */
  chatRead: (userId: number) => ({ userId }),
  /** components/HelpsManager (super) */
  help: (title: string) => ({ title, description: 'How to', video: 'dQw4w9WgXcQ' }),
  /** components/AnnouncementModal (super): its initialState with the form's values (selects hold 1-3 and true/false) */
  newAnnouncement: (title: string) => ({ title, text: 'Maintenance on Sunday', priority: 3, status: true }),
  /**
   * components/AnnouncementModal handleSaveAnnouncement on edit: the record it loaded (GET /announcements/:id,
   * spread over initialState) with the form's values, sent back whole
   */
  editedAnnouncement: (loaded: Record<string, unknown>, values: Record<string, unknown>) => ({
    title: '',
    text: '',
    priority: 3,
    status: true,
    ...loaded,
    ...values,
  }),
  /** components/AnnouncementModal: the attachment as `file` (upload.array("file")) */
  announcementImage: (data: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);

    return form;
  },

  /**
   * components/ScheduleModal handleSaveSchedule on create: its initial state (`sentAt: ""`), the chosen contact,
   * the datetime-local `sendAt` (browser-local `YYYY-MM-DDTHH:mm`, no offset) and `userId` added
   */
  scheduleNew: (contactId: number, body: string, sendAt: string, userId: number) => ({
    body,
    contactId,
    sendAt,
    sentAt: '',
    userId,
  }),
  /** components/ScheduleModal handleSaveSchedule on edit: the record it read back, `sendAt` re-formatted local */
  scheduleEdit: (loaded: Record<string, unknown>, body: string, sendAt: string, userId: number) => ({
    ...loaded,
    body,
    sendAt,
    userId,
  }),
  /** components/ScheduleModal handleSaveSchedule, after the save: the attachment's form (field `file`) */
  scheduleMedia: (data: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);

    return form;
  },
  /**
   * pages/Dashboard/index.js fetchData, filter "by date": useDashboard's GET /dashboard with the date inputs
   * (start: the 1st of the month, end: today, as moment formats them)
   */
  dashboardByDates: (dateFrom: string, dateTo: string) => ({ date_from: dateFrom, date_to: dateTo }),
  /** pages/Dashboard/index.js fetchData, filter "by period": the dates cleared, only `days` */
  dashboardByPeriod: (days: number) => ({ days: String(days) }),
  /**
   * pages/Dashboard/ChartsUser.js and ChartsDate.js: `?initialDate&finalDate&companyId` (dayjs YYYY-MM-DD,
   * both today at first; companyId from localStorage)
   */
  dashboardChart: (initialDate: string, finalDate: string, companyId: number) => ({
    initialDate,
    finalDate,
    companyId: String(companyId),
  }),
  /** components/ContactListDialog handleSaveContactList: its initialState `{name}` with the form's value */
  newContactList: (name: string) => ({ name }),
  /** components/ContactListDialog on edit: the record it loaded (GET /contact-lists/:id) sent back whole */
  editedContactList: (loaded: Record<string, unknown>, name: string) => ({ ...loaded, name }),
  /** components/ContactListItemModal handleSaveContact: the form's values, the company and the route's list id (a string) */
  newContactListItem: (companyId: number, contactListId: number) => ({
    name: 'Maria Lista',
    number: '5511987650001',
    email: '',
    companyId,
    contactListId: String(contactListId),
  }),
  /** components/ContactListItemModal on edit: the loaded item (with isWhatsappValid, ids, dates) and the form's values */
  editedContactListItem: (loaded: Record<string, unknown>, companyId: number, contactListId: number) => ({
    ...loaded,
    name: 'Maria Lista Editada',
    companyId,
    contactListId: String(contactListId),
  }),
  /** pages/ContactListItems handleUploadFile: the chosen spreadsheet as `file` (accept=".xls,.xlsx") */
  contactListFile: (data: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);

    return form;
  },
  /**
   * components/FileModal handleSaveFileList on create: Formik's values (name, message, the rows with their
   * name, path and mediaType; a row whose file was chosen carries the File, which JSON writes as `{}`) and
   * the user's id
   */
  fileList: (name: string, message: string, rows: string[], userId: number) => ({
    name,
    message,
    options: rows.map((row) => ({ name: row, path: '', mediaType: '', file: {} })),
    userId,
  }),
  /** components/FileModal handleSaveFileList on edit: the list it loaded (GET /files/:id) with the form's values */
  fileListEdited: (loaded: Record<string, unknown>, values: Record<string, unknown>, userId: number) => ({
    ...loaded,
    ...values,
    userId,
  }),
  /**
   * components/FileModal uploadFiles: `fileId`, `typeArch`, then for each row with a chosen file `files`,
   * `mediaType` (the browser's type), `name` and `id` of the row the save answered
   */
  fileListUpload: (
    fileListId: number,
    rows: { id: number; name: string }[],
    files: { name: string; type: string; data: Buffer }[],
  ) => {
    const form = new FormData();
    form.append('fileId', String(fileListId));
    form.append('typeArch', 'fileList');
    files.forEach((file, i) => {
      form.append('files', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
      form.append('mediaType', file.type);
      form.append('name', rows[i].name);
      form.append('id', String(rows[i].id));
    });

    return form;
  },

  /** pages/MessagesAPI handleSendTextMessage: JSON `{number, body}` with the connection's token as the bearer */
  apiSendText: (number: string, body: string) => ({ number, body }),
  /** pages/MessagesAPI handleSendMediaMessage: `number`, `body` (the file's name) and one `medias` file */
  apiSendMedia: (number: string, file: { name: string; type: string; data: Buffer }) => {
    const form = new FormData();
    form.append('number', number);
    form.append('body', file.name);
    form.append('medias', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);

    return form;
  },
  /**
   * components/CheckoutPage/CheckoutPage.js _submitForm: the data step's address fields, the card form's fields
   * (never read by Zelo), `plan` as the JSON of the tier PaymentForm picked, its `price`, `users` and
   * `connections`, and the invoice being paid. POST /subscription.
   */
  checkout: (
    invoiceId: number,
    tier: { planId: number; title: string; price: number; users: number; connections: number },
  ) => ({
    firstName: 'Ana Pagadora',
    lastName: '',
    address2: 'Rua das Flores, 10',
    city: 'São Paulo',
    state: 'SP',
    zipcode: '01000-000',
    country: 'BR',
    useAddressForPaymentDetails: false,
    nameOnCard: 'ANA PAGADORA',
    cardNumber: '4111111111111111',
    cvv: '123',
    plan: JSON.stringify({ ...tier, queues: 3, description: [], buttonText: 'SELECIONAR', buttonVariant: 'outlined' }),
    price: tier.price,
    users: tier.users,
    connections: tier.connections,
    invoiceId,
  }),

  /** components/FlowBuilderModal handleSaveContact: POST /flowbuilder {name}; PUT /flowbuilder {name, flowId} */
  flowName: (name: string, flowId?: number) => (flowId ? { name, flowId } : { name }),

  /**
   * pages/FlowBuilderConfig saveFlow: POST /flowbuilder/flow {idFlow, nodes, connections} — the React Flow state
   * as the editor holds it (width/height/selected/positionAbsolute/dragging on nodes, buttonedge edges with
   * `reactflow__edge-…` ids); `idFlow` is the route parameter, a string.
   */
  flowSave: (idFlow: string, nodes: unknown[], connections: unknown[]) => ({ idFlow, nodes, connections }),

  /** components/FlowBuilderAddImgModal: the file in `medias`, its name in `body` */
  flowMedia: (file: { name: string; type: string; data: Buffer }) => {
    const form = new FormData();
    form.append('fromMe', 'true');
    form.append('medias', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    form.append('body', file.name);

    return form;
  },

  /** components/CampaignModalPhrase: POST {name, flowId, whatsappId, phrase}; PUT adds id and status */
  flowCampaign: (fields: {
    name: string;
    flowId: number;
    whatsappId: number;
    phrase: string;
    id?: number;
    status?: boolean;
  }) =>
    fields.id
      ? { ...fields }
      : { name: fields.name, flowId: fields.flowId, whatsappId: fields.whatsappId, phrase: fields.phrase },
  /** components/PromptModal on create: its initialState with the form's values and the model select */
  newPrompt: (queueId: number, apiKey: string) => ({
    name: 'Atendente virtual',
    prompt: 'Você é um atendente virtual da empresa. Responda com cordialidade e de forma breve.',
    model: 'gpt-3.5-turbo-1106',
    maxTokens: 100,
    temperature: 1,
    apiKey,
    queueId,
    maxMessages: 10,
  }),
  /** components/PromptModal on edit: the loaded prompt (masked key, queue object, counters) sent back whole */
  editPrompt: (loaded: Record<string, unknown>, changes: Record<string, unknown>) => ({
    ...loaded,
    ...changes,
    model: loaded.model,
  }),
};
