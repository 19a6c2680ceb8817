import type { MailMessage } from '../../common/mail/mail-transport';

/** What the recipient e-mail shows; read from the card when the mail is sent. */
export interface GiftCardMailData {
  to: string;
  code: string;
  amountCents: number;
  recipientName: string | null;
  purchaserName: string | null;
  note: string | null;
}

/** Integer cents as a plain amount (`5000` -> `50.00`); billing does not know the tenant's currency symbol. */
export const formatCents = (cents: number): string => `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** The recipient notification of an activated gift card: plain text, carrying the code. */
export function giftCardEmail(data: GiftCardMailData): MailMessage {
  const greeting = data.recipientName ? `Hello ${data.recipientName},` : 'Hello,';
  const from = data.purchaserName ? `${data.purchaserName} has sent you` : 'You have received';
  const lines = [greeting, '', `${from} a gift card worth ${formatCents(data.amountCents)}.`, '', `Your gift card code: ${data.code}`];
  if (data.note) lines.push('', 'Message:', data.note);
  lines.push('', 'Show this code at the front desk or enter it when you pay.');
  return { to: data.to, subject: 'You have received a gift card', text: lines.join('\n') };
}
