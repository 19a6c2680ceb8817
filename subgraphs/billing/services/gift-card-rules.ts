import { randomUUID } from 'node:crypto';
import { Issues, type IssueLoc } from '../../common/field-rules';
import type { IssueGiftCardInput } from '../inputs/gift-card.input';
import { patientName, type DirectoryPatient } from '../repositories/directory.repository';
import type { NewGiftCard } from '../repositories/gift-card.repository';
import { cents, MAX_NAME, MAX_NOTE, optionalEmail, optionalPhone, optionalString, unknownReference } from './rules';

/** Largest initial value: 1,000,000.00 in the tenant's currency, in cents. */
export const MAX_GIFT_CARD_CENTS = 100_000_000;

/** What the rules need from the database, looked up before they run. */
export interface GiftCardLookups {
  patients: Map<string, DirectoryPatient>;
  chargeItemExists: boolean;
}

/** A purchaser or recipient: the fields sent, falling back to the directory's patient when an id is given. */
function party(issues: Issues, at: IssueLoc, input: IssueGiftCardInput, role: 'purchasing' | 'recipient', patients: Map<string, DirectoryPatient>) {
  const key = (field: string) => `${role}Patient${field}` as keyof IssueGiftCardInput;
  const rawId = input[key('Id')] as string | null | undefined;
  let patient: DirectoryPatient | undefined;
  if (rawId) {
    // The directory's map is keyed by lower-cased ids; an id that cannot exist is simply not in it.
    patient = patients.get(rawId.toLowerCase());
    if (!patient) unknownReference(issues, [...at, key('Id')], 'patient', rawId);
  }
  const name = optionalString(issues, [...at, key('Name')], input[key('Name')] as string | null | undefined, MAX_NAME);
  const email = optionalEmail(issues, [...at, key('Email')], input[key('Email')] as string | null | undefined);
  const phone = optionalPhone(issues, [...at, key('Phone')], input[key('Phone')] as string | null | undefined);
  return {
    id: patient?.id ?? null,
    name: name ?? (patient ? patientName(patient) : null),
    email: email ?? patient?.email ?? null,
    phone: phone ?? patient?.phone ?? null,
  };
}

/**
 * Checks an `issueGiftCard` input and resolves its snapshots, listing every problem at once.
 * A recipient e-mail is required unless notifications are suppressed: activation must have
 * somewhere to send the card.
 */
export function validateIssue(input: IssueGiftCardInput, lookups: GiftCardLookups, at: IssueLoc = ['input']): Omit<NewGiftCard, 'code'> {
  const issues = new Issues();
  const loc = (field: string) => [...at, field];
  const initialValue = cents(issues, loc('initialValueCents'), input.initialValueCents, 1, MAX_GIFT_CARD_CENTS);
  const purchaser = party(issues, at, input, 'purchasing', lookups.patients);
  const recipient = party(issues, at, input, 'recipient', lookups.patients);
  const recipientNote = optionalString(issues, loc('recipientNote'), input.recipientNote, MAX_NOTE);
  const suppress = input.suppressRecipientNotification ?? false;
  if (!suppress && !recipient.email && !issues.list.some((i) => i.loc[at.length] === 'recipientPatientEmail')) {
    issues.value(loc('recipientPatientEmail'), 'recipientPatientEmail is required unless suppressRecipientNotification is true', input.recipientPatientEmail ?? null);
  }
  if (input.chargeItemId && !lookups.chargeItemExists) unknownReference(issues, loc('chargeItemId'), 'charge item', input.chargeItemId);
  issues.throwIfAny();
  return {
    id: randomUUID(),
    initialValue,
    purchasingPatientId: purchaser.id,
    purchasingPatientName: purchaser.name,
    purchasingPatientEmail: purchaser.email,
    purchasingPatientPhone: purchaser.phone,
    recipientPatientId: recipient.id,
    recipientPatientName: recipient.name,
    recipientPatientEmail: recipient.email,
    recipientPatientPhone: recipient.phone,
    recipientNote,
    chargeItemId: input.chargeItemId ? input.chargeItemId.toLowerCase() : null,
    scheduledSendDate: input.scheduledSendAt ?? null,
    suppressRecipientNotification: suppress,
  };
}
