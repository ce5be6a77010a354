import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export type TMail = {
  to: string;
  subject: string;
  text: string;
  /** an HTML part beside the text (multipart/alternative) */
  html?: string;
  /** the Message-ID, when the sender gives each mail a stable one (a repeat then looks like the same mail) */
  messageId?: string;
};
export type TMailer = { send: (mail: TMail) => Promise<void> };

/**
 * SMTP when SMTP_URL is set (smtp://user:pass@host:port, smtps://… for TLS); otherwise every mail is
 * written to the log and to DATA_DIR/mail, so a fresh install can still reset a password.
 */
export const createMailer = (opts: { smtpUrl?: string; from: string; dataDir: string; log: Logger }): TMailer => {
  const { smtpUrl } = opts;
  if (smtpUrl) {
    // nodemailer is loaded on the first mail, not at start
    let transport: Promise<Transporter> | undefined;

    return {
      send: async (mail) => {
        transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
        await (await transport).sendMail({ from: opts.from, ...mail });
      },
    };
  }
  const dir = resolve(opts.dataDir, 'mail');

  return {
    send: async (mail) => {
      await mkdir(dir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = resolve(dir, `${new Date().toISOString().replaceAll(':', '-')}-${safeTo}.txt`);
      await writeFile(file, `From: ${opts.from}\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, {
        mode: 0o600,
      });
      opts.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the data directory (no SMTP_URL)');
    },
  };
};
