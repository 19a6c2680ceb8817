import { registerEnumType } from 'type-graphql';

// Both the billing subgraph (which records revenue lines) and the analytics one (which reports them)
// show these: a federated enum must have the same values wherever it is declared, so both declare this one.

/** How a sale was paid; stored lower case in revenue_line.payment_medium. */
export enum PaymentMedium {
  CARD = 'card',
  CASH = 'cash',
  ACH = 'ach',
  GIFT_CARD = 'gift_card',
  WALLET_PAY = 'wallet_pay',
  CHECK = 'check',
  INSURANCE = 'insurance',
  OTHER = 'other',
}
registerEnumType(PaymentMedium, { name: 'PaymentMedium', description: 'How a sale was paid; revenue_line.payment_medium holds the lower-case value' });

/** What a revenue line sold; stored lower case in revenue_line.item_type (packages are `package`). */
export enum RevenueItemType {
  PRODUCT = 'product',
  SERVICE = 'service',
  PACKAGE = 'package',
}
registerEnumType(RevenueItemType, { name: 'RevenueItemType', description: 'What a revenue line sold: a product, a service or a package of sessions' });
