// Card field helpers of the sandbox checkout: spacing, MM/YY and the checks before a charge.
export function formatCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export interface CardFields {
  cardNumber: string;
  expiry: string;
  cvv: string;
}

export type CardErrors = Partial<Record<keyof CardFields, string>>;

export function validateCard(fields: CardFields, now: Date = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = fields.cardNumber.replace(/\D/g, '');
  if (!digits) errors.cardNumber = 'Card number is required';
  else if (digits.length < 12 || digits.length > 19) errors.cardNumber = 'Card number must be 12 to 19 digits';
  const match = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(fields.expiry.trim());
  if (!fields.expiry.trim()) errors.expiry = 'Expiry is required';
  else if (!match) errors.expiry = 'Expiry must be MM/YY';
  else {
    const year = 2000 + Number(match[2]);
    const month = Number(match[1]);
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) errors.expiry = 'This card has expired';
  }
  if (!/^\d{3,4}$/.test(fields.cvv.trim())) errors.cvv = 'CVV must be 3 or 4 digits';
  return errors;
}
