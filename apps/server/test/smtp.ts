import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type TReceivedMail = { from: string; to: string[]; raw: string };

/** A real SMTP server on loopback that keeps what it receives. */
export const startSmtpServer = async () => {
  const inbox: TReceivedMail[] = [];
  const waiters: ((mail: TReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
