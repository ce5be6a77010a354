import { MESSAGES_API_PATH } from '@zelo/shared';

/**
 * a token as the page shows it until revealed: its last four characters. The connections list already holds
 * the server's mask (`********` and the last four), shown with the same dots.
 */
export const maskedToken = (token: string) =>
  token.startsWith('*') ? token.replace(/\*/g, '•') : `••••••••${token.length > 12 ? token.slice(-4) : ''}`;

/** the endpoint on this server (the page is served by the same origin as the API) */
export const endpointOf = (origin: string) => `${origin.replace(/\/$/, '')}${MESSAGES_API_PATH}`;

/** `curl` for a JSON text send */
export const curlJson = (endpoint: string, token: string, number: string, body: string) =>
  [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: order-1234-shipped' \\`,
    `  -d '${JSON.stringify({ number, body }).replace(/'/g, "'\\''")}'`,
  ].join('\n');

/** `curl` for a multipart send with a file */
export const curlMultipart = (endpoint: string, token: string, number: string, body: string) =>
  [
    `curl -X POST '${endpoint}' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -F 'number=${number}' \\`,
    `  -F 'body=${body.replace(/'/g, "'\\''")}' \\`,
    `  -F 'medias=@/path/to/invoice.pdf'`,
  ].join('\n');

/** the answer of a send */
export const SAMPLE_ANSWER = JSON.stringify(
  { mensagem: 'Mensagem enviada', messageId: 1234, messageIds: [1234], ticketId: 56, contactId: 78 },
  null,
  2,
);

/** the errors a send may answer, with their status (texts in i18n `messagesApi.errors.<code>`) */
export const API_ERRORS = [
  ['400', 'ERR_VALIDATION'],
  ['400', 'ERR_WAPP_INVALID_CONTACT'],
  ['401', 'ERR_WAPP_NOT_FOUND_FOR_TOKEN'],
  ['403', 'ERR_PLAN_FEATURE_DISABLED'],
  ['409', 'ERR_WAPP_NOT_INITIALIZED'],
  ['409', 'ERR_CONFLICT'],
  ['413', 'ERR_PAYLOAD_TOO_LARGE'],
  ['429', 'ERR_TOO_MANY_REQUESTS'],
  ['502', 'ERR_SENDING_WAPP_MSG'],
] as const;

export type TTryAnswer = { status: number; body: unknown };

/**
 * The "try it" call: the external API itself, with the connection's token as the bearer (not the user's
 * session, so a 401 here never ends the session). JSON without a file, multipart with one.
 */
export const trySend = async (
  token: string,
  input: { number: string; body: string; file: File | null; idempotencyKey?: string },
): Promise<TTryAnswer> => {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  if (input.idempotencyKey) {
    headers['Idempotency-Key'] = input.idempotencyKey;
  }
  let payload: BodyInit;
  if (input.file) {
    const form = new FormData();
    form.append('number', input.number);
    form.append('body', input.body);
    form.append('medias', input.file, input.file.name);
    payload = form;
  } else {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify({ number: input.number, body: input.body });
  }
  const res = await fetch(MESSAGES_API_PATH, { method: 'POST', headers, body: payload });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }

  return { status: res.status, body };
};
