import type { DocumentedRoute } from '../openapi';

// The selections are the contract's records (part 2), field for field.
const PAYMENT_METHOD = `id patientId processorPaymentMethodId brand last4 expMonth expYear accountHolderType
  accountNumberLast4 bankName routingNumber description type isDefault isArchived`;
const GIFT_CARD = `id code initialValue: initialValueCents currentBalance: currentBalanceCents isActive status createdDate: createdAt activatedAt scheduledSendDate: scheduledSendAt notificationSentAt updatedDate: updatedAt
  purchasingPatientId purchasingPatientName purchasingPatientEmail purchasingPatientPhone
  recipientPatientId recipientPatientName recipientPatientEmail recipientPatientPhone recipientNote
  chargeItemId suppressRecipientNotification transactions { id type amountCents balanceAfterCents createdAt }`;
const LOCATION = 'id isVirtual name addressLineOne addressLineTwo city state zipCode country createdDate: createdAt partnerLocationId';
const MERCHANT_ACCOUNT = `id name isDefault cardProcessingFee perTransactionFee: perTransactionFeeCents inPersonCardProcessingFee inPersonPerTransactionFee: inPersonPerTransactionFeeCents
  createdDate: createdAt updatedDate: updatedAt locations { ${LOCATION} }`;

/** Digits as the contract types them (integer); GraphQL keeps text, so `"0123"` becomes `123` here (docs/api.md, Billing). */
const asInteger = (digits: string | null): number | null => (digits === null || digits === undefined ? null : Number(digits));

/** The REST record of a payment method: GraphQL's strings for the two digit fields become the contract's integers. */
function paymentMethodRecord(method: Record<string, unknown>): Record<string, unknown> {
  return { ...method, accountNumberLast4: asInteger(method.accountNumberLast4 as string | null), routingNumber: asInteger(method.routingNumber as string | null) };
}

const text = { type: ['string', 'null'] };
const int = { type: ['integer', 'null'] };
/** The payment method record of contract part 2, spelled out because `result` changes two field types. */
const PAYMENT_METHOD_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    patientId: { type: 'string' },
    processorPaymentMethodId: { type: 'string', description: "The processor's id of the method" },
    brand: text,
    last4: { ...text, description: "Last 4 digits of the card (of the account for ACH)" },
    expMonth: int,
    expYear: int,
    accountHolderType: { ...text, enum: ['individual', 'company', null] },
    accountNumberLast4: { ...int, description: 'An integer as the contract says: leading zeros are lost ("0042" -> 42); GraphQL has the text' },
    bankName: text,
    routingNumber: { ...int, description: 'An integer as the contract says: leading zeros are lost ("021000021" -> 21000021); GraphQL has the text' },
    description: text,
    type: { type: 'string', enum: ['CARD', 'ACH', 'WALLET_PAY'] },
    isDefault: { type: 'boolean' },
    isArchived: { type: 'boolean' },
  },
  required: ['id', 'patientId', 'processorPaymentMethodId', 'brand', 'last4', 'expMonth', 'expYear', 'accountHolderType', 'accountNumberLast4', 'bankName', 'routingNumber', 'description', 'type', 'isDefault', 'isArchived'],
};

const CARD_REQUEST = {
  paymentMethodId: 'pm_1QxYz2AbCdEf',
  fingerprint: 'Xt5EWLLDS7FJjR1c',
  methodType: 'CARD',
  card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
  billingContact: { name: 'Ada Lovelace', postalCode: '97201', country: 'US', email: 'ada@example.com' },
};
const CARD_RECORD = {
  id: '0d5b4f7e-8c1a-4e2b-9f3d-6a7b8c9d0e1f', patientId: '5a2e9c41-7b3d-4f60-8e1a-2c4d6f8a0b13', processorPaymentMethodId: 'pm_1QxYz2AbCdEf',
  brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, accountHolderType: null, accountNumberLast4: null, bankName: null, routingNumber: null,
  description: 'visa ending in 4242', type: 'CARD', isDefault: true, isArchived: false,
};

/** Contract part 4.4: patient payment methods. */
export const PAYMENT_METHOD_ROUTES: DocumentedRoute[] = [
  {
    method: 'POST',
    path: '/user/patient/payment-methods/create',
    operationId: 'createPatientPaymentMethod',
    summary: 'Add a payment method, already tokenised by the processor, to a patient; full card or account numbers are refused',
    tag: 'Payment methods',
    document: `mutation CreatePatientPaymentMethod($patientId: ID!, $input: CreatePaymentMethodInput!) {
      createPatientPaymentMethod(patientId: $patientId, input: $input) { ${PAYMENT_METHOD} }
    }`,
    queryParams: { patient_id: 'patientId' },
    body: { variable: 'input', required: true },
    validationStyle: 'basic',
    idempotent: true,
    result: (data) => paymentMethodRecord(data.createPatientPaymentMethod),
    responseSchema: PAYMENT_METHOD_SCHEMA,
    responseDescription:
      "The payment method. The same fingerprint for the same patient answers the existing record; the patient's first method is the default. 404: unknown patient",
    requestExample: CARD_REQUEST,
    responseExample: CARD_RECORD,
  },
];

/** Contract parts 4.6 (gift cards), 4.7 (members) and 4.8 (merchant accounts). */
export const BILLING_ROUTES: DocumentedRoute[] = [
  {
    method: 'POST',
    path: '/billing/gift-cards/issued/{gift_card_id}/activate',
    operationId: 'activateIssuedGiftCard',
    summary: 'Activate a PENDING gift card (409 `Gift card is not pending` otherwise) and e-mail the recipient unless sendNotification is false',
    tag: 'Gift cards',
    document: `mutation ActivateGiftCard($id: ID!, $sendNotification: Boolean! = true) { activateGiftCard(id: $id, sendNotification: $sendNotification) { ${GIFT_CARD} } }`,
    pathParams: { gift_card_id: 'id' },
    body: { fields: { sendNotification: 'sendNotification' }, required: false },
    idempotent: true,
    result: (data) => data.activateGiftCard,
    responseDescription:
      'The card after activation: ACTIVE, isActive true, currentBalance loaded with initialValue (integer cents) and an ACTIVATION transaction. notificationSentAt is set once the e-mail is sent (not before scheduledSendDate)',
    requestExample: { sendNotification: true },
  },
  {
    method: 'POST',
    path: '/inventory/members/manual-payment',
    operationId: 'makeMemberManualPayment',
    summary: "Charge a member's whole balance due to a payment method of the member's patient",
    tag: 'Members',
    document: `mutation MakeMemberManualPayment($input: MemberManualPaymentInput!) {
      makeMemberManualPayment(input: $input) { paymentId memberId amountCents status failureReason comment createdAt }
    }`,
    body: { variable: 'input', required: true },
    validationStyle: 'basic',
    idempotent: true,
    upstream: 'payment processor',
    result: (data) => data.makeMemberManualPayment,
    responseDescription:
      'The payment: SUCCEEDED clears the balance (PAST_DUE becomes ACTIVE); a decline is 200 with status FAILED and the code in failureReason. An attempt whose processor answer was lost stays PENDING and is settled with the same idempotency key by the next request (a retry with the same method answers it). 422: nothing due, archived or foreign payment method; 404: unknown member or payment method; 409: another payment of the member is in progress; 503: the processor could not be reached (the attempt stays PENDING; retry)',
    requestExample: { memberId: '3f9a1c2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b', paymentMethodId: '0d5b4f7e-8c1a-4e2b-9f3d-6a7b8c9d0e1f', comment: 'Paid at the front desk' },
  },
  {
    method: 'GET',
    path: '/billing/merchant_accounts',
    operationId: 'listMerchantAccounts',
    summary: 'Every merchant account of the tenant with its locations; fees: processing in percent (2.9 = 2.9 %), per-transaction in integer cents',
    tag: 'Merchant accounts',
    document: `query MerchantAccounts { merchantAccounts { ${MERCHANT_ACCOUNT} } }`,
    result: (data) => data.merchantAccounts,
  },
];
