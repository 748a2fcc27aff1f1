// A user's own record (api.md Users): GET /user/get/{id}, PUT /user/update/{id} and
// GET /user/{id}/verification-status. Self and admins only; everyone else gets 404
// (decisions.md section 1). Verified users cannot change identity or bank details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User, UserWithDocuments, VerificationStatusResponse } from '@karoo/shared';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, type TestApp } from './helpers';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const getUser = (id: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/user/get/${id}`, headers });
const update = (id: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/user/update/${id}`, headers, payload });
const status = (id: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/user/${id}/verification-status`, headers });

describe('GET /api/user/get/{id}', () => {
  it('shows users themselves their record with documents, by id or username', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { withDocuments: true });
    for (const key of [user.id, user.username, user.username.toUpperCase()]) {
      const data = expectOk<UserWithDocuments>(await getUser(key, headers));
      expect(data.id).toBe(user.id);
      expect(data.bank_account).toEqual({ account_number: user.bank_account_number, bank_code: user.bank_code });
      expect(data.documents.id_document).toMatchObject({ mime_type: 'application/pdf', url: `/api/user/${user.username}/documents/id_document` });
      expect(data.documents.proof_of_address).toBeNull();
      expect(data).not.toHaveProperty('password_hash');
    }
  });

  it('shows admins anyone', async () => {
    const other = await createUser(t.ctx);
    expect(expectOk<UserWithDocuments>(await getUser(other.username, admin.headers)).id).toBe(other.id);
  });

  it('answers 404 for another user, existing or not, and 401 without a token', async () => {
    const { headers } = await createSignedInUser(t.app, t.ctx);
    const other = await createUser(t.ctx);
    expectError(await getUser(other.id, headers), 404, 'User not found');
    expectError(await getUser(other.username, headers), 404, 'User not found');
    expectError(await getUser('no_such_user', headers), 404, 'User not found');
    expectError(await getUser(other.id, {}), 401);
  });
});

describe('PUT /api/user/update/{id}', () => {
  const profile = {
    full_name: 'Lindiwe Zulu',
    email: 'lindiwe.zulu@example.co.za',
    phone_number: '+27 71 555 0199',
    address: '3 Oak Ave, Durban, 4001',
    id_number: '9202020202082',
    bank_account: { account_number: '1234567890', bank_code: '632005' },
  };

  it('lets an unverified user change every profile field', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const res = await update(user.id, headers, profile);
    const data = expectOk<User>(res);
    expect(res.json().message).toBe('Profile updated successfully!');
    expect(data).toMatchObject(profile);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ full_name: profile.full_name, bank_account_number: '1234567890', bank_code: '632005' });
  });

  it('answers 404 when a user updates someone else', async () => {
    const { headers } = await createSignedInUser(t.app, t.ctx);
    const other = await createUser(t.ctx);
    expectError(await update(other.id, headers, { phone_number: '+27 71 555 0000' }), 404);
    const row = await t.db.selectFrom('users').select('phone_number').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(row.phone_number).toBe(other.phone_number);
  });

  it('validates the fields with the profile messages', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await update(user.id, headers, { full_name: '' }), 400, 'Full name is required');
    expectError(await update(user.id, headers, { email: 'nope' }), 400, 'Please enter a valid email address');
    expectError(await update(user.id, headers, { phone_number: 'call me' }), 400, 'Please enter a valid phone number');
  });

  it.each<[string, Record<string, unknown>]>([
    ['full name', { full_name: 'Someone Else' }],
    ['email', { email: 'brand.new@example.co.za' }],
    ['address', { address: '9 New Rd, Pretoria' }],
    ['ID number', { id_number: '8001015009087' }],
    ['bank account number', { bank_account: { account_number: '99999999' } }],
    ['bank code', { bank_account: { bank_code: '470010' } }],
  ])('refuses a verified user changing the %s with 403', async (_field, change) => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', withDocuments: true });
    expectError(await update(user.id, headers, change), 403, /verified/i);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      full_name: user.full_name,
      email: user.email,
      address: user.address,
      id_number: user.id_number,
      bank_account_number: user.bank_account_number,
      bank_code: user.bank_code,
    });
  });

  it('lets a verified user change the phone number, and resend unchanged locked values', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', withDocuments: true });
    const data = expectOk<User>(
      await update(user.id, headers, {
        full_name: user.full_name,
        email: user.email,
        address: user.address,
        id_number: user.id_number,
        bank_account: { account_number: user.bank_account_number, bank_code: user.bank_code },
        phone_number: '+27 60 555 0123',
      }),
    );
    expect(data.phone_number).toBe('+27 60 555 0123');
    expect(data.full_name).toBe(user.full_name);
  });

  it('lets an admin correct a verified user\u2019s locked details', async () => {
    const target = await createUser(t.ctx, { verification_status: 'verified' });
    expect(expectOk<User>(await update(target.id, admin.headers, { full_name: 'Corrected Name' })).full_name).toBe('Corrected Name');
  });

  it('refuses an email another account holds with 409, whatever its case', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const other = await createUser(t.ctx);
    const error = expectError(await update(user.id, headers, { email: other.email.toUpperCase() }), 409, 'An account with this email already exists');
    expect(error.errors?.email).toBe('An account with this email already exists');
  });

  it('ignores role, user_type, verification_status, rating and total_trips sent by the user', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const data = expectOk<User>(
      await update(user.id, headers, {
        role: 'admin',
        user_type: 'admin',
        verification_status: 'verified',
        host_since: '2020-01-01',
        rating: 5,
        total_trips: 99,
        phone_number: '+27 60 555 0999',
      }),
    );
    expect(data).toMatchObject({ role: 'customer', user_type: null, verification_status: 'pending_verification', host_since: null, rating: null, total_trips: 0 });
    expect(data.phone_number).toBe('+27 60 555 0999');
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'customer', user_type: null, verification_status: 'pending_verification', host_since: null, rating: null, total_trips: 0 });
  });

  it('lets an admin make a user a host: user_type host and host_since set', async () => {
    const target = await createUser(t.ctx);
    const data = expectOk<User>(await update(target.id, admin.headers, { role: 'host' }));
    expect(data).toMatchObject({ role: 'host', user_type: 'host' });
    expect(data.host_since).toBe(t.clock.now().toISOString());
  });

  it('does not let an admin change their own role', async () => {
    expectError(await update(admin.user.id, admin.headers, { role: 'customer' }), 403);
  });
});

describe('GET /api/user/{id}/verification-status', () => {
  it('lists the missing profile fields and the documents', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, {
      withDocuments: ['id_document'],
      overrides: { phone_number: null, address: 'Not provided', bank_code: '  ' },
    });
    const data = expectOk<VerificationStatusResponse>(await status(user.username, headers));
    expect(data.verification_status).toBe('pending_verification');
    expect(data.missing).toEqual(['Phone number', 'Address', 'Bank code', 'Verification Documents']);
    expect(data.documents.id_document).toMatchObject({ mime_type: 'application/pdf' });
    expect(data.documents.driver_license).toBeNull();
    expect(Object.keys(data.documents).sort()).toEqual(['bank_confirmation_letter', 'driver_license', 'id_document', 'proof_of_address']);
  });

  it('lists nothing for a complete profile with the required documents', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { withDocuments: true, verification_status: 'verified' });
    expect(expectOk<VerificationStatusResponse>(await status(user.id, headers))).toMatchObject({ verification_status: 'verified', missing: [] });
  });

  it('is visible to admins and hidden (404) from other users', async () => {
    const target = await createUser(t.ctx);
    const { headers } = await createSignedInUser(t.app, t.ctx);
    expectOk(await status(target.id, admin.headers));
    expectError(await status(target.id, headers), 404);
  });
});
