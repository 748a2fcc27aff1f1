// Document 1 section 5: every validation rule of the account forms and its exact message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  createUserBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  profileFormSchema,
  registerBodySchema,
  registerStep1FormSchema,
  registerStep2FormSchema,
  resetPasswordBodySchema,
  resetPasswordFormSchema,
  updateUserBodySchema,
  verificationBodySchema,
} from './users';
import { COMMON_PASSWORDS } from './passwords';
import { isReservedUsername } from './roles';

/** The first message per field, as a form shows it (and as the API's `errors` map reports it). */
function fieldErrors(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** Every message reported for one field. */
function allMessages(schema: z.ZodType, value: unknown, field: string): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.filter((i) => i.path.join('.') === field).map((i) => i.message);
}

describe('login form', () => {
  const valid = { username: 'sipho', password: 'secret' };

  it('accepts a username or an email with a password', () => {
    expect(loginBodySchema.safeParse(valid).success).toBe(true);
    expect(loginBodySchema.safeParse({ username: 'sipho@example.co.za', password: 'x', remember: true }).success).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['missing', undefined],
  ])('requires the username or email (%s)', (_case, username) => {
    expect(fieldErrors(loginBodySchema, { ...valid, username }).username).toBe('Username or email is required');
  });

  it.each([
    ['empty', ''],
    ['missing', undefined],
  ])('requires the password (%s)', (_case, password) => {
    expect(fieldErrors(loginBodySchema, { ...valid, password }).password).toBe('Password is required');
  });
});

describe('register step 1 (Account Details)', () => {
  const valid = {
    full_name: 'Sipho Nkosi',
    email: 'sipho@example.co.za',
    username: 'sipho',
    password: 'secret1',
    confirmPassword: 'secret1',
  };

  it('accepts a complete step', () => {
    expect(registerStep1FormSchema.safeParse(valid).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['full name empty', { full_name: '' }, 'full_name', 'Full name is required'],
    ['full name blank', { full_name: '   ' }, 'full_name', 'Full name is required'],
    ['full name missing', { full_name: undefined }, 'full_name', 'Full name is required'],
    ['email empty', { email: '' }, 'email', 'Email is required'],
    ['email missing', { email: undefined }, 'email', 'Email is required'],
    ['email without @', { email: 'sipho.example.co.za' }, 'email', 'Please enter a valid email address'],
    ['email without domain dot', { email: 'sipho@example' }, 'email', 'Please enter a valid email address'],
    ['email with a space', { email: 'si pho@example.co.za' }, 'email', 'Please enter a valid email address'],
    ['username empty', { username: '' }, 'username', 'Username is required'],
    ['username missing', { username: undefined }, 'username', 'Username is required'],
    ['username of 2 characters', { username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    ['password empty', { password: '', confirmPassword: '' }, 'password', 'Password is required'],
    ['password missing', { password: undefined }, 'password', 'Password is required'],
    ['password of 5 characters', { password: '12345', confirmPassword: '12345' }, 'password', 'Password must be at least 6 characters'],
    ['confirmation empty', { confirmPassword: '' }, 'confirmPassword', 'Please confirm your password'],
    ['confirmation different', { confirmPassword: 'secret2' }, 'confirmPassword', "Passwords don't match"],
  ])('%s', (_case, change, field, message) => {
    expect(fieldErrors(registerStep1FormSchema, { ...valid, ...change })[field]).toBe(message);
  });

  it('accepts a username of exactly 3 characters and a password of exactly 6', () => {
    expect(registerStep1FormSchema.safeParse({ ...valid, username: 'abc', password: '123456', confirmPassword: '123456' }).success).toBe(true);
  });

  it.each(['admin', 'superadmin', 'The_Admin', 'ADMIN1', 'host', 'hostess', 'Host_thabo'])('refuses the reserved username %s', (username) => {
    expect(fieldErrors(registerStep1FormSchema, { ...valid, username }).username).toBe('This username is reserved');
  });

  it.each(['ghost', 'my_host', 'adm1n', 'thabo'])('allows the ordinary username %s', (username) => {
    expect(fieldErrors(registerStep1FormSchema, { ...valid, username }).username).toBeUndefined();
  });
});

describe('register step 2 (Terms & Privacy)', () => {
  it('needs both boxes ticked; the marketing choice is free either way', () => {
    expect(registerStep2FormSchema.safeParse({ terms_accepted: true, privacy_accepted: true, marketing_opt_in: false }).success).toBe(true);
    expect(registerStep2FormSchema.safeParse({ terms_accepted: true, privacy_accepted: true, marketing_opt_in: true }).success).toBe(true);
    expect(fieldErrors(registerStep2FormSchema, { terms_accepted: false, privacy_accepted: true, marketing_opt_in: false })).toEqual({
      terms_accepted: 'You must accept the terms and conditions',
    });
    expect(fieldErrors(registerStep2FormSchema, { terms_accepted: true, privacy_accepted: false, marketing_opt_in: false })).toEqual({
      privacy_accepted: 'You must accept the privacy policy',
    });
  });
});

describe('register request body (POST /user/register)', () => {
  const valid = {
    full_name: 'Naledi Mahlangu',
    email: 'naledi@example.co.za',
    username: 'naledi',
    password: 'secret1',
    terms_accepted: true,
    privacy_accepted: true,
    role: 'user',
  };

  it('accepts the seed payload, role included', () => {
    expect(registerBodySchema.parse(valid)).toEqual(valid);
  });

  it.each([false, undefined, 'true'])('refuses terms_accepted = %s with the terms message', (terms_accepted) => {
    expect(fieldErrors(registerBodySchema, { ...valid, terms_accepted }).terms_accepted).toBe('You must accept the terms and conditions');
  });

  it.each([false, undefined])('refuses privacy_accepted = %s with the privacy message', (privacy_accepted) => {
    expect(fieldErrors(registerBodySchema, { ...valid, privacy_accepted }).privacy_accepted).toBe('You must accept the privacy policy');
  });

  it('trims the name, email and username', () => {
    const parsed = registerBodySchema.parse({ ...valid, full_name: '  Naledi  ', email: ' naledi@example.co.za ', username: ' naledi ' });
    expect(parsed).toMatchObject({ full_name: 'Naledi', email: 'naledi@example.co.za', username: 'naledi' });
  });

  it('refuses usernames with characters outside letters, digits, dots, hyphens and underscores', () => {
    expect(fieldErrors(registerBodySchema, { ...valid, username: 'nal edi' }).username).toMatch(/may only contain/);
    expect(fieldErrors(registerBodySchema, { ...valid, username: 'nal@edi' }).username).toMatch(/may only contain/);
  });

  it('round-trips any valid body unchanged (property)', () => {
    const trimmedText = (max: number) =>
      fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim() === s && s.length > 0);
    const body = fc.record(
      {
        full_name: trimmedText(100),
        email: fc.emailAddress().filter((e) => e.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e)),
        username: fc.stringMatching(/^[A-Za-z0-9._-]{3,30}$/).filter((u) => !isReservedUsername(u)),
        password: fc.string({ minLength: 6, maxLength: 256 }),
        terms_accepted: fc.constant(true as const),
        privacy_accepted: fc.constant(true as const),
        role: fc.constantFrom('user', 'customer', 'admin', 'host'),
      },
      { requiredKeys: ['full_name', 'email', 'username', 'password', 'terms_accepted', 'privacy_accepted'] },
    );
    fc.assert(
      fc.property(body, (value) => {
        expect(registerBodySchema.parse(value)).toEqual(value);
      }),
    );
  });
});

describe('forgot password form', () => {
  it('requires an email that looks like one', () => {
    expect(forgotPasswordBodySchema.safeParse({ email: 'sipho@example.co.za' }).success).toBe(true);
    expect(fieldErrors(forgotPasswordBodySchema, { email: '' }).email).toBe('Email is required');
    expect(fieldErrors(forgotPasswordBodySchema, {}).email).toBe('Email is required');
    expect(fieldErrors(forgotPasswordBodySchema, { email: 'sipho' }).email).toBe('Please enter a valid email address');
  });
});

describe('reset password form', () => {
  const valid = { password: 'Sunrise42', confirmPassword: 'Sunrise42' };
  const TOO_COMMON = 'Password is too common. Please choose a stronger password.';

  it('accepts a strong enough, matching password', () => {
    expect(resetPasswordFormSchema.safeParse(valid).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['password empty', { password: '', confirmPassword: '' }, 'password', 'Password is required'],
    ['password missing', { password: undefined }, 'password', 'Password is required'],
    ['7 characters', { password: 'abcde12', confirmPassword: 'abcde12' }, 'password', 'Password must be at least 8 characters long'],
    ['letters only', { password: 'abcdefgh', confirmPassword: 'abcdefgh' }, 'password', 'Password must contain at least one letter and one number'],
    ['digits only', { password: '12345678', confirmPassword: '12345678' }, 'password', 'Password must contain at least one letter and one number'],
    ['symbols and digits, no letter', { password: '!!!!1234', confirmPassword: '!!!!1234' }, 'password', 'Password must contain at least one letter and one number'],
    ['common password', { password: 'password123', confirmPassword: 'password123' }, 'password', TOO_COMMON],
    ['common password in capitals', { password: 'PASSWORD123', confirmPassword: 'PASSWORD123' }, 'password', TOO_COMMON],
    ['confirmation empty', { confirmPassword: '' }, 'confirmPassword', 'Please confirm your password'],
    ['confirmation different', { confirmPassword: 'Sunrise43' }, 'confirmPassword', 'Passwords do not match'],
  ])('%s', (_case, change, field, message) => {
    expect(fieldErrors(resetPasswordFormSchema, { ...valid, ...change })[field]).toBe(message);
  });

  it('uses a different mismatch message from registration', () => {
    expect(fieldErrors(resetPasswordFormSchema, { password: 'Sunrise42', confirmPassword: 'Sunrise24' }).confirmPassword).toBe('Passwords do not match');
    expect(
      fieldErrors(registerStep1FormSchema, { full_name: 'A', email: 'a@b.co', username: 'abc', password: 'Sunrise42', confirmPassword: 'Sunrise24' }).confirmPassword,
    ).toBe("Passwords don't match");
  });

  it.each(COMMON_PASSWORDS)('refuses the common password %s in any case', (common) => {
    for (const variant of [common, common.toUpperCase(), common[0]!.toUpperCase() + common.slice(1)]) {
      expect(allMessages(resetPasswordBodySchema, { token: 't', newPassword: variant }, 'newPassword')).toContain(TOO_COMMON);
    }
  });

  it('refuses any casing of a common password (property)', () => {
    const casedCommon = fc
      .tuple(fc.constantFrom(...COMMON_PASSWORDS), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }))
      .map(([word, upper]) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
    fc.assert(
      fc.property(casedCommon, (password) => {
        expect(allMessages(resetPasswordFormSchema, { password, confirmPassword: password }, 'password')).toContain(TOO_COMMON);
      }),
    );
  });

  it('applies the same rules to the API body, and needs the token', () => {
    expect(resetPasswordBodySchema.safeParse({ token: 'abc', newPassword: 'Sunrise42' }).success).toBe(true);
    expect(fieldErrors(resetPasswordBodySchema, { token: 'abc', newPassword: 'short1' }).newPassword).toBe('Password must be at least 8 characters long');
    expect(fieldErrors(resetPasswordBodySchema, { token: '', newPassword: 'Sunrise42' }).token).toBe(
      'No reset token provided. Please request a new password reset.',
    );
  });
});

describe('profile form', () => {
  const valid = {
    full_name: 'Thabo Mokoena',
    email: 'thabo@example.co.za',
    phone_number: '+27 82 555 0101',
    address: '14 Jan Smuts Ave, Rosebank',
    id_number: '8503125800089',
    bank_account: { account_number: '62012345678', bank_code: '250655' },
  };

  it('accepts a complete profile', () => {
    expect(profileFormSchema.safeParse(valid).success).toBe(true);
  });

  it('requires every field, each with its own message', () => {
    const empty = { full_name: '', email: '', phone_number: '', address: '', id_number: '', bank_account: { account_number: '', bank_code: '' } };
    expect(fieldErrors(profileFormSchema, empty)).toEqual({
      full_name: 'Full name is required',
      email: 'Email is required',
      phone_number: 'Phone number is required',
      address: 'Address is required',
      id_number: 'ID number is required',
      'bank_account.account_number': 'Bank account number is required',
      'bank_account.bank_code': 'Bank code is required',
    });
  });

  it('treats blank values as missing', () => {
    expect(fieldErrors(profileFormSchema, { ...valid, address: '   ' }).address).toBe('Address is required');
  });

  it('checks the shape of phone, ID and bank numbers', () => {
    expect(fieldErrors(profileFormSchema, { ...valid, phone_number: 'call me' }).phone_number).toBe('Please enter a valid phone number');
    expect(fieldErrors(profileFormSchema, { ...valid, id_number: '12' }).id_number).toBe('Please enter a valid ID or passport number');
    expect(fieldErrors(profileFormSchema, { ...valid, bank_account: { ...valid.bank_account, account_number: '12ab' } })['bank_account.account_number']).toMatch(
      /valid bank account number/,
    );
    expect(fieldErrors(profileFormSchema, { ...valid, bank_account: { ...valid.bank_account, bank_code: '1' } })['bank_account.bank_code']).toMatch(/valid bank code/);
  });

  it('lets an update send any subset, and only known roles', () => {
    expect(updateUserBodySchema.safeParse({ phone_number: '+27 82 555 0101' }).success).toBe(true);
    expect(updateUserBodySchema.safeParse({}).success).toBe(true);
    expect(fieldErrors(updateUserBodySchema, { role: 'owner' }).role).toBe('Role must be admin, host or customer');
  });
});

describe('admin forms', () => {
  it('creates users with the register rules for username and password', () => {
    const valid = { username: 'newbie', email: 'newbie@example.co.za', name: 'New Bie', password: 'secret1' };
    expect(createUserBodySchema.safeParse(valid).success).toBe(true);
    expect(fieldErrors(createUserBodySchema, { ...valid, username: 'ab' }).username).toBe('Username must be at least 3 characters');
    expect(fieldErrors(createUserBodySchema, { ...valid, name: '' }).name).toBe('Full name is required');
  });

  it('moves a user only to verified or rejected', () => {
    expect(verificationBodySchema.safeParse({ verification_status: 'verified' }).success).toBe(true);
    expect(verificationBodySchema.safeParse({ verification_status: 'rejected', notes: 'Blurry ID' }).success).toBe(true);
    expect(fieldErrors(verificationBodySchema, { verification_status: 'pending_upload' }).verification_status).toBe(
      'Verification status must be verified or rejected',
    );
  });
});
