/**
 * The error catalogue: the spec's ERR_* codes (spec 1 §8) plus Zelo's own.
 * Each code has its HTTP status; texts live in the web app's i18n files under `errors.<CODE>`.
 */
export const ERROR_CATALOGUE = {
  // spec 1 §8
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 409,
  ERR_WAPP_CHECK_CONTACT: 502,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 401,
  ERR_SENDING_WAPP_MSG: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 403,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Zelo's own
  ERR_VALIDATION: 400,
  ERR_NOT_AUTHENTICATED: 401,
  ERR_SESSION_REVOKED: 401,
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_COMPANY_INACTIVE: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_PLAN_LIMIT_USERS: 403,
  ERR_PLAN_LIMIT_CONNECTIONS: 403,
  ERR_PLAN_LIMIT_QUEUES: 403,
  ERR_NOT_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  ERR_DUPLICATED_EMAIL: 409,
  ERR_DUPLICATED_COMPANY: 409,
  ERR_DUPLICATED_PLAN: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_CANNOT_DELETE_SELF: 409,
  ERR_CANNOT_DELETE_OWN_COMPANY: 409,
  ERR_LAST_ADMIN: 409,
  ERR_INVALID_RESET_CODE: 400,
  ERR_TOO_MANY_REQUESTS: 429,
  /** a company's share of background work (flow steps, AI, integrations) is used up for now */
  ERR_TENANT_BUSY: 429,
  /** the company already has as many flow test runs going as allowed */
  ERR_FLOW_TEST_RUNS_LIMIT: 429,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_ROUTE_NOT_FOUND: 404,
  ERR_CONFLICT: 409,
  ERR_WAPP_NOT_FOUND_FOR_TOKEN: 401,
  /** a connection's API token that is not strong enough (api-token.ts) or cannot be used: generate one */
  ERR_WAPP_TOKEN_WEAK: 400,
  ERR_TICKET_ALREADY_ACCEPTED: 409,
  ERR_TICKET_NOT_OPEN: 409,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_NO_FILE_LIST_FOUND: 404,
  ERR_NO_TICKET_NOTE_FOUND: 404,
  ERR_DUPLICATED_QUEUE: 409,
  ERR_DUPLICATED_QUEUE_OPTION: 409,
  ERR_DUPLICATED_TAG: 409,
  ERR_DUPLICATED_SHORTCODE: 409,
  ERR_DUPLICATED_FILE_LIST: 409,
  ERR_INVALID_SPREADSHEET: 400,
  /** Cloud API: free-form message outside the 24-hour customer-service window */
  ERR_WAPP_WINDOW_CLOSED: 409,
  /** Cloud API webhook: X-Hub-Signature-256 missing or wrong */
  ERR_WEBHOOK_SIGNATURE: 401,
  /** provider settings (channelConfig) missing or invalid for the chosen provider */
  ERR_CHANNEL_CONFIG: 400,
  /** the provider of this connection cannot do what was asked (QR on a Cloud API connection, …) */
  ERR_CHANNEL_UNSUPPORTED: 400,
  /** an inbound delivery could not be stored (the database is unavailable): the sender should send again */
  ERR_INBOUND_NOT_STORED: 503,
  /** no failed delivery with this id in the caller's company */
  ERR_NO_DELIVERY_FOUND: 404,
  /** internal chat: no chat with this id or uuid that the caller is a member of */
  ERR_NO_CHAT_FOUND: 404,
  /** internal chat: a chat needs at least one member besides its owner (spec 2 §5, `fillUser`) */
  ERR_CHAT_NO_MEMBERS: 400,
  /** no campaign with this id in the caller's company */
  ERR_NO_CAMPAIGN_FOUND: 404,
  ERR_DUPLICATED_CAMPAIGN: 409,
  /** spec 2 §4: only INATIVA, or PROGRAMADA more than an hour ahead, can be changed (CANCELADA: name/messages) */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  /** cancel needs EM_ANDAMENTO, restart needs CANCELADA */
  ERR_CAMPAIGN_INVALID_STATUS: 409,
  /** starting a campaign needs a connection, an audience and at least one message */
  ERR_CAMPAIGN_INCOMPLETE: 400,
  /** no contact list (or list item) with this id in the caller's company */
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_DUPLICATED_CONTACT_LIST: 409,
  /** a legacy binary .xls workbook: it must be saved as .xlsx (or .csv) first */
  ERR_LEGACY_XLS: 415,
  /** a spreadsheet that unpacks too large (zip directory, actual bytes, compression ratio, entries), or that
   * needs more memory or time to read than the server allows (lib/sheets) */
  ERR_SPREADSHEET_TOO_LARGE: 413,
  /** a spreadsheet of the same company is being read, or the server's spreadsheet queue is full */
  ERR_SPREADSHEET_BUSY: 429,
  /** no invoice with this id in the caller's company */
  ERR_NO_INVOICE_FOUND: 404,
  /** checkout or mark-paid of an invoice already paid */
  ERR_INVOICE_ALREADY_PAID: 409,
  /** the platform's payment provider is not configured (ASAAS_API_KEY unset): no checkout */
  ERR_BILLING_NOT_CONFIGURED: 503,
  /** the payment provider refused or did not answer the charge */
  ERR_PAYMENT_PROVIDER: 502,
  /** no flow with this id in the caller's company */
  ERR_NO_FLOW_FOUND: 404,
  ERR_DUPLICATED_FLOW: 409,
  /** a saved flow needs exactly one start node */
  ERR_FLOW_START_NODE: 400,
  /** node ids repeat, or an edge points at a node that is not in the flow */
  ERR_FLOW_GRAPH: 400,
  /** a flow upload larger than its kind allows (image 2 MB, audio 5 MB, video 20 MB) */
  ERR_FLOW_MEDIA_TOO_LARGE: 413,
  /** a flow upload whose content is not an accepted type (png/jpg, ogg/mp3/opus, MP4 only for video) */
  ERR_FLOW_MEDIA_TYPE: 415,
  /** no phrase campaign with this id in the caller's company */
  ERR_NO_FLOW_CAMPAIGN_FOUND: 404,
  ERR_DUPLICATED_FLOW_CAMPAIGN: 409,
  /** no flow run with this id in the caller's company */
  ERR_NO_FLOW_RUN_FOUND: 404,
  /** a test run needs a sandbox connection in the company */
  ERR_NO_SANDBOX_CONNECTION: 409,
  /** no queue integration with this id in the caller's company */
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_DUPLICATED_INTEGRATION: 409,
  /** a Dialogflow test session (or a token request) failed: the message says why */
  ERR_INTEGRATION_TEST_FAILED: 502,
  /** an outbound URL a tenant configured is not http(s), does not resolve, or reaches a private address */
  ERR_OUTBOUND_URL_REFUSED: 400,
  /** a Cloud API Graph URL on a host other than Meta's that the operator did not allow (OUTBOUND_ALLOW_HOSTS) */
  ERR_GRAPH_URL_NOT_ALLOWED: 400,
  /** an address paired with a stored secret changed while the secret was sent masked or not at all */
  ERR_SECRET_RETYPE_REQUIRED: 400,
  /** no AI prompt with this id in the caller's company */
  ERR_NO_PROMPT_FOUND: 404,
  ERR_DUPLICATED_PROMPT: 409,
} as const;

export type TErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as TErrorCode[];

export const isErrorCode = (value: unknown): value is TErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);

/** The body of every error answer. */
export type TErrorBody = {
  error: TErrorCode;
  message: string;
  details?: { path: string; message: string }[];
};
