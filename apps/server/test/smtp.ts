import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type TReceivedMail = { from: string; to: string[]; raw: string };

/** A real SMTP server on loopback that keeps what it receives; `failNext(n)` refuses the next n mails (451). */
export const startSmtpServer = async () => {
  const inbox: TReceivedMail[] = [];
  const waiters: ((mail: TReceivedMail) => void)[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      const refuse = failures > 0;
      if (refuse) failures -= 1;
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        if (refuse) {
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        };
        inbox.push(mail);
        for (const w of waiters.splice(0)) w(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    next: () => new Promise<TReceivedMail>((resolve) => waiters.push(resolve)),
    failNext: (n: number) => {
      failures = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

type TMimePart = { headers: Map<string, string>; body: string };

const splitPart = (raw: string): TMimePart => {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }

  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
};

/** quoted-printable text (its =XX bytes) as UTF-8 */
const quotedPrintable = (text: string) => {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }

  return Buffer.from(bytes).toString('utf8');
};

const decodeBody = (part: TMimePart) => {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body.replace(/=\r\n/g, ''));

  return part.body;
};

/** a header's encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) decoded */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : quotedPrintable(text.replace(/_/g, ' ')),
    );

/** a received mail's headers (decoded), and its text and HTML parts (nodemailer's 7bit, quoted-printable, base64) */
export const readMail = (raw: string) => {
  const top = splitPart(raw);
  const parts: TMimePart[] = [];
  const walk = (part: TMimePart) => {
    const type = part.headers.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      for (const piece of part.body.split(`--${boundary}`).slice(1)) {
        if (piece.startsWith('--')) break;
        walk(splitPart(piece.replace(/^\r\n/, '')));
      }
    } else parts.push(part);
  };
  walk(top);
  const ofType = (t: string) => parts.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith(t));
  const text = ofType('text/plain');
  const html = ofType('text/html');

  return {
    header: (name: string) => decodeWords(top.headers.get(name.toLowerCase()) ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : '',
  };
};
