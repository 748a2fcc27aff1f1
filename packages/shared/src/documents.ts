// The verification documents and their names: plain constants, apart from the schemas of users.ts,
// so the verification banner on every page loads no zod.
export const DOCUMENT_TYPES = ['id_document', 'driver_license', 'proof_of_address', 'bank_confirmation_letter'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const REQUIRED_DOCUMENT_TYPES: readonly DocumentType[] = ['id_document', 'driver_license', 'bank_confirmation_letter'];
export const DOCUMENT_LABELS: Record<DocumentType, string> = {
  id_document: 'ID Document',
  driver_license: "Driver's License",
  proof_of_address: 'Proof of Address',
  bank_confirmation_letter: 'Bank Confirmation Letter',
};
