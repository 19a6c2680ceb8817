import type { MailMessage } from '../../common/mail/mail-transport';

/** The invitation e-mail: where to accept it (the console's page, the token in the URL's fragment, which no server or log sees) and until when. */
export function invitationMail(to: string, tenantName: string, role: string, acceptUrl: string, expiresAt: Date): MailMessage {
  return {
    to,
    subject: `You are invited to ${tenantName}`,
    text: [
      `You have been invited to ${tenantName} on the Healthcare Practice Platform, as ${role}.`,
      '',
      'Accept the invitation and choose your password here:',
      acceptUrl,
      '',
      `The link works once, until ${expiresAt.toUTCString()}. If you did not expect this invitation, ignore this message.`,
    ].join('\n'),
  };
}
