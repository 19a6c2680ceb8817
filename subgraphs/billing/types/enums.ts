import { registerEnumType } from 'type-graphql';

export { PaymentMedium, RevenueItemType } from '../../common/revenue-line-enums';

/** Kind of payment method (contract part 2: `type`). */
export enum PaymentMethodType {
  CARD = 'CARD',
  ACH = 'ACH',
  WALLET_PAY = 'WALLET_PAY',
}
registerEnumType(PaymentMethodType, { name: 'PaymentMethodType', description: 'Card, bank account (ACH) or mobile wallet' });

/** Gift card states (contract part 3). */
export enum GiftCardStatus {
  PENDING = 'PENDING',
  ACTIVE = 'ACTIVE',
  DISABLED = 'DISABLED',
  VOIDED = 'VOIDED',
}
registerEnumType(GiftCardStatus, { name: 'GiftCardStatus', description: 'PENDING until staff activate it, then ACTIVE' });

/** Kinds of gift card balance movement. */
export enum GiftCardTransactionType {
  ACTIVATION = 'ACTIVATION',
}
registerEnumType(GiftCardTransactionType, { name: 'GiftCardTransactionType', description: 'ACTIVATION loads the initial value' });

/** Status of a membership. */
export enum MemberStatus {
  ACTIVE = 'ACTIVE',
  PAST_DUE = 'PAST_DUE',
  CANCELLED = 'CANCELLED',
}
registerEnumType(MemberStatus, { name: 'MemberStatus', description: 'A successful payment turns PAST_DUE into ACTIVE' });

/** How often a membership is billed. */
export enum MembershipInterval {
  MONTH = 'MONTH',
  YEAR = 'YEAR',
}
registerEnumType(MembershipInterval, { name: 'MembershipInterval', description: 'Billing period of a membership' });

/** Outcome of a payment at the processor. */
export enum PaymentStatus {
  PENDING = 'PENDING',
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}
registerEnumType(PaymentStatus, {
  name: 'PaymentStatus',
  description: 'FAILED payments carry the decline code in failureReason',
  valuesConfig: { PENDING: { description: "Sent to the processor, its answer not recorded yet (lost in transit); the member's next payment settles it" } },
});


/** What a charge item sold; stored lower case in revenue_line.item_type (packages are `package`). */
export enum ChargeItemType {
  PRODUCT = 'product',
  SERVICE = 'service',
}
registerEnumType(ChargeItemType, { name: 'ChargeItemType', description: 'A product or a service; revenue_line.item_type holds the lower-case value' });


/** Who holds an ACH account; stored lower case. */
export enum AccountHolderType {
  INDIVIDUAL = 'individual',
  COMPANY = 'company',
}
registerEnumType(AccountHolderType, { name: 'AccountHolderType', description: 'Who holds the bank account behind an ACH payment method' });

/** The mobile wallet of a WALLET_PAY payment method; stored lower case. */
export enum WalletType {
  APPLE_PAY = 'apple_pay',
  GOOGLE_PAY = 'google_pay',
  SAMSUNG_PAY = 'samsung_pay',
  LINK = 'link',
  AMAZON_PAY = 'amazon_pay',
  PAYPAL = 'paypal',
  MASTERPASS = 'masterpass',
  VISA_CHECKOUT = 'visa_checkout',
}
registerEnumType(WalletType, { name: 'WalletType', description: 'The mobile wallet a WALLET_PAY payment method is kept in' });
