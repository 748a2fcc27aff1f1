// Bridges the user record and the profile form: the form's starting values, and status labels.
import { isMissingValue, type ProfileForm, type User } from '@karoo/shared';

const text = (value: string | null | undefined) => (isMissingValue(value) ? '' : (value ?? '').trim());

export function profileFormValues(user: User): ProfileForm {
  return {
    full_name: text(user.full_name),
    email: text(user.email),
    phone_number: text(user.phone_number),
    address: text(user.address),
    id_number: text(user.id_number),
    driver_licence_number: text(user.driver_licence_number),
    driver_licence_issued_on: text(user.driver_licence_issued_on),
    bank_account: {
      account_number: text(user.bank_account?.account_number),
      bank_code: text(user.bank_account?.bank_code),
    },
  };
}

export function verificationStatusLabel(status: string | null | undefined): string {
  switch (status) {
    case 'verified':
      return 'Verified';
    case 'pending_verification':
      return 'Pending verification';
    case 'rejected':
      return 'Rejected';
    case 'pending_upload':
      return 'Documents needed';
    default:
      return 'Incomplete';
  }
}
