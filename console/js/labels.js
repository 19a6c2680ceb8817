// Human labels for the closed sets the API sends as codes (`wallet_pay` reads "Wallet pay").
// Codes not listed here are shown as sent: a value added to the API later still reads, if plainly.

const VALUES = {
  paymentMedium: { card: 'Card', cash: 'Cash', ach: 'Bank transfer (ACH)', gift_card: 'Gift card', wallet_pay: 'Wallet pay', check: 'Check', insurance: 'Insurance', other: 'Other' },
  itemType: { product: 'Product', service: 'Service', package: 'Package' },
  source: { charge_item: 'Charge item', sold_package: 'Sold package' },
};
// The explorer's group keys name the same sets by the API's group_by values.
const GROUPS = { payment_medium: 'paymentMedium' };

/** The label of `value` of a member (`revenue.paymentMedium`, `paymentMedium`, or a group_by such as `payment_medium`); the value itself when it has none. */
export function valueLabel(member, value) {
  if (value === null || value === undefined || value === '') return '(none)';
  const name = String(member ?? '').split('.').pop();
  const labels = VALUES[GROUPS[name] ?? name];
  return labels && Object.hasOwn(labels, value) ? labels[value] : String(value);
}
