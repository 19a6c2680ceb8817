// Human labels for the closed sets the API sends as codes (`wallet_pay` reads "Wallet pay").
// Codes not listed here are shown as sent: a value added to the API later still reads, if plainly.
// A code comes in its stored spelling from query engine rows and group keys (`wallet_pay`), and as the
// graph's enum name from enum fields (`WALLET_PAY`, a revenue line's paymentMedium): both read alike.

const VALUES = {
  paymentMedium: { card: 'Card', cash: 'Cash', ach: 'Bank transfer (ACH)', gift_card: 'Gift card', wallet_pay: 'Wallet pay', check: 'Check', insurance: 'Insurance', other: 'Other' },
  itemType: { product: 'Product', service: 'Service', package: 'Package' },
  source: { charge_item: 'Charge item', sold_package: 'Sold package' },
};
/** The label of `value` (either spelling) of a member (`revenue.paymentMedium` or `paymentMedium`); the value itself when it has none. */
export function valueLabel(member, value) {
  if (value === null || value === undefined || value === '') return '(none)';
  const name = String(member ?? '').split('.').pop();
  const labels = VALUES[name];
  const code = String(value).toLowerCase();
  return labels && Object.hasOwn(labels, code) ? labels[code] : String(value);
}
