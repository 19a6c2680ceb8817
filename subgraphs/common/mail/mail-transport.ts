import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Nodemailer from 'nodemailer';
import type { MailSettings } from './mail-settings';

/** One e-mail to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail; `key` names the message where one is kept locally (the notification id). */
export interface MailTransport {
  send(message: MailMessage, key: string): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise nodemailer's stream transport renders the
 * RFC 5322 message and it is written to `<DATA_DIR>/mail/<time>-<key>.eml`, so a development
 * setup can read every mail it would have sent without a mail server.
 */
export function createMailTransport(settings: MailSettings): MailTransport {
  // Loaded here rather than at the top: only a process that sends mail needs it (~1.8 MiB of heap).
  const nodemailer = require('nodemailer') as typeof Nodemailer;
  if (settings.smtpUrl) {
    const smtp = nodemailer.createTransport(settings.smtpUrl);
    return {
      async send(message) {
        const info = await smtp.sendMail({ from: settings.from, ...message });
        return { messageId: info.messageId };
      },
      close: () => smtp.close(),
    };
  }
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message, key) {
      const info = await stream.sendMail({ from: settings.from, ...message });
      await mkdir(settings.mailDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writeFile(join(settings.mailDir, `${stamp}-${key.replace(/[^A-Za-z0-9-]/g, '')}.eml`), info.message as Buffer, { mode: 0o600 });
      return { messageId: info.messageId };
    },
    close: () => stream.close(),
  };
}
