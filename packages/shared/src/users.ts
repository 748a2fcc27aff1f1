// Account schemas of document 1 section 5: the server validates with them and the forms reuse them,
// so a rule and its message live in one place.
import { z } from './zod';
import { REGISTER_PASSWORD_MIN, RESET_PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants';
import { isCommonPassword } from './passwords';
import { isReservedUsername } from './roles';
import { safeText } from './text';

const requiredText = (label: string, message: string, max = 200) =>
  safeText(label, { error: message })
    .min(1, message)
    .max(max, `Must be at most ${max} characters`);

export const emailField = safeText('Email', { error: 'Email is required' })
  .min(1, 'Email is required')
  .max(254, 'Please enter a valid email address')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address');

export const usernameField = safeText('Username', { error: 'Username is required' })
  .min(1, 'Username is required')
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .regex(/^[A-Za-z0-9._-]+$/, 'Username may only contain letters, numbers, dots, hyphens and underscores')
  .refine((name) => !isReservedUsername(name), 'This username is reserved');

export const registerPasswordField = safeText('Password', { error: 'Password is required', trim: false })
  .min(1, 'Password is required')
  .min(REGISTER_PASSWORD_MIN, 'Password must be at least 6 characters')
  .max(256, 'Password must be at most 256 characters');

export const resetPasswordField = safeText('Password', { error: 'Password is required', trim: false })
  .min(1, 'Password is required')
  .min(RESET_PASSWORD_MIN, 'Password must be at least 8 characters long')
  .max(256, 'Password must be at most 256 characters')
  .regex(/^(?=.*[A-Za-z])(?=.*\d)/s, 'Password must contain at least one letter and one number')
  .refine((p) => !isCommonPassword(p), 'Password is too common. Please choose a stronger password.');

// ---- Register ----
export const registerStep1Shape = {
  full_name: requiredText('Full name', 'Full name is required', 100),
  email: emailField,
  username: usernameField,
  password: registerPasswordField,
};

/** What POST /user/register accepts. `role` is accepted for compatibility and ignored. */
export const registerBodySchema = z.object({
  ...registerStep1Shape,
  terms_accepted: z.literal(true, { error: 'You must accept the terms and conditions' }),
  privacy_accepted: z.literal(true, { error: 'You must accept the privacy policy' }),
  /** The marketing opt-in (MARKETING_CONSENT's words), unticked unless the person ticks it (decision 049). */
  marketing_opt_in: z.boolean().optional(),
  role: safeText('Role').max(40).optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** Step 1 of the register form: the server's fields plus the confirmation. */
export const registerStep1FormSchema = z
  .object({
    ...registerStep1Shape,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterStep1Form = z.input<typeof registerStep1FormSchema>;

export const registerStep2FormSchema = z.object({
  terms_accepted: z.boolean().refine((v) => v, 'You must accept the terms and conditions'),
  privacy_accepted: z.boolean().refine((v) => v, 'You must accept the privacy policy'),
  marketing_opt_in: z.boolean(),
});
export type RegisterStep2Form = z.infer<typeof registerStep2FormSchema>;

// ---- Login ----
export const loginBodySchema = z.object({
  username: safeText('Username or email', { error: 'Username or email is required' }).min(1, 'Username or email is required').max(254),
  password: safeText('Password', { error: 'Password is required', trim: false }).min(1, 'Password is required').max(256),
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

// ---- Forgot and reset ----
export const forgotPasswordBodySchema = z.object({ email: emailField });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const resetPasswordBodySchema = z.object({
  token: safeText('Reset token', { error: 'No reset token provided. Please request a new password reset.', trim: false })
    .min(1, 'No reset token provided. Please request a new password reset.')
    .max(200),
  newPassword: resetPasswordField,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

// ---- Sign-in links (offered when password sign-in is throttled or the account capped) ----
/** The name typed on the sign-in form: the link goes to that account's email, if there is one. */
export const signInLinkRequestBodySchema = z.object({ username: loginBodySchema.shape.username });
export type SignInLinkRequestBody = z.infer<typeof signInLinkRequestBodySchema>;

/** The one answer for a link that is unknown, used, expired or malformed: which of these it is helps nobody. */
export const SIGN_IN_LINK_INVALID_MESSAGE = 'This sign-in link is invalid, already used or expired. Please ask for a new one.';
export const signInWithLinkBodySchema = z.object({
  token: safeText('Sign-in link', { error: SIGN_IN_LINK_INVALID_MESSAGE, trim: false })
    .min(1, SIGN_IN_LINK_INVALID_MESSAGE)
    .max(200, SIGN_IN_LINK_INVALID_MESSAGE),
});
export type SignInWithLinkBody = z.infer<typeof signInWithLinkBodySchema>;

export const resetPasswordFormSchema = z
  .object({
    password: resetPasswordField,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

// ---- Change password (signed in): the current password, then a new one under the reset rules ----
export const changePasswordBodySchema = z.object({
  currentPassword: safeText('Current password', { error: 'Current password is required', trim: false })
    .min(1, 'Current password is required')
    .max(256),
  newPassword: resetPasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const changePasswordFormSchema = z
  .object({
    currentPassword: changePasswordBodySchema.shape.currentPassword,
    newPassword: resetPasswordField,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

// ---- Profile ----
export const phoneField = safeText('Phone number', { error: 'Phone number is required' })
  .min(1, 'Phone number is required')
  .regex(/^\+?[\d\s()-]{9,20}$/, 'Please enter a valid phone number');
export const idNumberField = safeText('ID number', { error: 'ID number is required' })
  .min(1, 'ID number is required')
  .regex(/^[A-Za-z0-9]{6,20}$/, 'Please enter a valid ID or passport number');
export const accountNumberField = safeText('Bank account number', { error: 'Bank account number is required' })
  .min(1, 'Bank account number is required')
  .regex(/^\d{6,16}$/, 'Please enter a valid bank account number (6 to 16 digits)');
export const bankCodeField = safeText('Bank code', { error: 'Bank code is required' })
  .min(1, 'Bank code is required')
  .regex(/^\d{4,10}$/, 'Please enter a valid bank code (4 to 10 digits)');

export const driverLicenceField = safeText('Driving licence number')
  .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{6,20}$/, 'Please enter a valid driving licence number (6 to 20 letters and digits)'));

/** The licence's first issue date: a real calendar date, not in the future, not before 1940. */
export const licenceIssueDateField = safeText('Licence issue date')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter the date as YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '1940-01-01';
  }, 'Please enter a real date');

export const profileFormSchema = z.object({
  full_name: requiredText('Full name', 'Full name is required', 100),
  email: emailField,
  phone_number: phoneField,
  address: requiredText('Address', 'Address is required', 300),
  id_number: idNumberField,
  /** Optional: asked for when a traffic fine is nominated to the driver (decision 066); empty is none. */
  driver_licence_number: z.union([z.literal(''), driverLicenceField]).optional(),
  /** Optional: the licence's first issue date, which a car's instant booking may ask about (decision 078); empty is none. */
  driver_licence_issued_on: z.union([z.literal(''), licenceIssueDateField]).optional(),
  bank_account: z.object({ account_number: accountNumberField, bank_code: bankCodeField }),
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

/** PUT /user/update/{id}: any subset of the profile; admins may also set the role. */
export const updateUserBodySchema = z.object({
  full_name: profileFormSchema.shape.full_name.optional(),
  email: emailField.optional(),
  phone_number: phoneField.optional(),
  address: profileFormSchema.shape.address.optional(),
  id_number: idNumberField.optional(),
  /** The driving licence number (on the card's front, 12 characters), for a traffic fine's nomination (decision 066). */
  driver_licence_number: driverLicenceField.optional(),
  /** The licence's first issue date (YYYY-MM-DD), for a car's instant booking requirement (decision 078); not after today (the server checks). */
  driver_licence_issued_on: licenceIssueDateField.optional(),
  bank_account: z
    .object({ account_number: accountNumberField.optional(), bank_code: bankCodeField.optional() })
    .optional(),
  role: z.enum(['admin', 'host', 'customer'], { error: 'Role must be admin, host or customer' }).optional(),
  // Sent by the list-a-car wizard; never grants anything (decisions.md section 1).
  user_type: safeText('User type').max(40).optional(),
  host_since: safeText('Host since').max(40).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

// ---- Admin ----
export const createUserBodySchema = z.object({
  username: usernameField,
  email: emailField,
  name: requiredText('Full name', 'Full name is required', 100),
  phone_number: safeText('Phone number').max(20).optional(),
  address: safeText('Address').max(300).optional(),
  password: registerPasswordField,
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const VERIFICATION_STATUSES = ['pending_upload', 'pending_verification', 'verified', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const verificationBodySchema = z.object({
  verification_status: z.enum(['verified', 'rejected'], {
    error: 'Verification status must be verified or rejected',
  }),
  notes: safeText('Notes', { multiline: true }).max(1000).optional(),
});
export type VerificationBody = z.infer<typeof verificationBodySchema>;

// ---- Responses ----
export const bankAccountSchema = z.object({
  account_number: z.string().nullable(),
  bank_code: z.string().nullable(),
});

export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  full_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  address: z.string().nullable(),
  id_number: z.string().nullable(),
  driver_licence_number: z.string().nullable().optional(),
  driver_licence_issued_on: z.string().nullable().optional(),
  bank_account: bankAccountSchema,
  role: z.enum(['admin', 'host', 'customer']),
  user_type: z.string().nullable(),
  verification_status: z.enum(VERIFICATION_STATUSES),
  verification_notes: z.string().nullable(),
  host_since: z.string().nullable(),
  rating: z.number().nullable(),
  total_trips: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export { DOCUMENT_LABELS, DOCUMENT_TYPES, REQUIRED_DOCUMENT_TYPES, type DocumentType } from './documents';

export const storedDocumentSchema = z.object({
  url: z.string(),
  originalName: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  uploaded_at: z.string(),
});
export type StoredDocument = z.infer<typeof storedDocumentSchema>;

export const documentsSchema = z.object({
  id_document: storedDocumentSchema.nullable(),
  driver_license: storedDocumentSchema.nullable(),
  proof_of_address: storedDocumentSchema.nullable(),
  bank_confirmation_letter: storedDocumentSchema.nullable(),
});
export type Documents = z.infer<typeof documentsSchema>;

export const userWithDocumentsSchema = userSchema.extend({ documents: documentsSchema });
export type UserWithDocuments = z.infer<typeof userWithDocumentsSchema>;

export const verificationStatusSchema = z.object({
  verification_status: z.enum(VERIFICATION_STATUSES),
  documents: documentsSchema,
  missing: z.array(z.string()),
});
export type VerificationStatusResponse = z.infer<typeof verificationStatusSchema>;

export const loginResponseSchema = z.object({ user: userSchema, token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;
