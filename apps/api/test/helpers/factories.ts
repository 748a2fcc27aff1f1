// Users inserted straight into the database (one argon2 hash per file, reused), and sign-in
// helpers that go through the API like a client would.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { REQUIRED_DOCUMENT_TYPES, type DocumentType } from '@karoo/shared';
import type { AppContext } from '../../src/context';
import type { NewUser, UserRow } from '../../src/db/schema';
import { hashPassword } from '../../src/lib/passwords';
import { pdfBytes } from './files';

export const TEST_PASSWORD = 'Karoo-test-1';

let passwordHash: Promise<string> | undefined;
const testPasswordHash = () => (passwordHash ??= hashPassword(TEST_PASSWORD));

let counter = 0;
/** A fresh, unreserved username (never contains 'admin' nor starts with 'host'). */
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}_${counter}_${randomBytes(3).toString('hex')}`;
}

export interface CreateUserOptions {
  username?: string;
  email?: string;
  full_name?: string;
  role?: UserRow['role'];
  verification_status?: UserRow['verification_status'];
  /** Store the three required documents (ID, driver's licence, bank letter) as PDFs. */
  withDocuments?: boolean | readonly DocumentType[];
  /** Any other column, e.g. { phone_number: null } for an incomplete profile. */
  overrides?: Partial<NewUser>;
}

export interface TestUser extends UserRow {
  password: string;
}

export async function createUser(ctx: AppContext, options: CreateUserOptions = {}): Promise<TestUser> {
  const role = options.role ?? 'customer';
  const username = options.username ?? uniqueName(role === 'admin' ? 'boss' : role === 'host' ? 'owner' : 'user');
  const status = options.verification_status ?? 'pending_verification';
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('users')
    .values({
      username,
      email: options.email ?? `${username}@example.co.za`,
      password_hash: await testPasswordHash(),
      full_name: options.full_name ?? `Test ${username}`,
      phone_number: '+27 82 555 0100',
      address: '1 Long St, Cape Town, 8001',
      id_number: '9001015800085',
      bank_account_number: '62012345678',
      bank_code: '250655',
      role,
      user_type: role === 'customer' ? null : role,
      verification_status: status,
      verified_at: status === 'verified' ? now : null,
      host_since: role === 'host' ? now : null,
      terms_accepted_at: now,
      privacy_accepted_at: now,
      ...options.overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  const docTypes = options.withDocuments === true ? REQUIRED_DOCUMENT_TYPES : options.withDocuments || [];
  for (const type of docTypes) {
    const data = pdfBytes(`${type} of ${username}`);
    const key = `users/${row.id}/${type}-${randomBytes(4).toString('hex')}.pdf`;
    await ctx.privateFiles.put(key, data);
    await ctx.db
      .insertInto('user_documents')
      .values({ user_id: row.id, type, storage_key: key, original_name: `${type}.pdf`, mime_type: 'application/pdf', size_bytes: data.length, uploaded_at: now })
      .execute();
  }
  return { ...row, password: TEST_PASSWORD };
}

export const authHeader = (token: string) => ({ authorization: `Bearer ${token}` });

export async function loginResponse(
  app: FastifyInstance,
  username: string,
  password: string = TEST_PASSWORD,
  extra: { remember?: boolean } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password, ...extra } });
}

/** Signs in through the API and returns the bearer token; fails loudly otherwise. */
export async function login(
  app: FastifyInstance,
  username: string,
  password: string = TEST_PASSWORD,
  extra: { remember?: boolean } = {},
): Promise<string> {
  const res = await loginResponse(app, username, password, extra);
  if (res.statusCode !== 200) throw new Error(`login(${username}) answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

/**
 * The same person signed in again with "remember me" (a 30-day session), for tests whose clock
 * moves days on (a trip that starts, ends and is paid out).
 */
export async function rememberedSession<T extends { user: { username: string } }>(app: FastifyInstance, who: T): Promise<T & { token: string; headers: { authorization: string } }> {
  const token = await login(app, who.user.username, undefined, { remember: true });
  return { ...who, token, headers: authHeader(token) };
}

/** A user and a signed-in token in one step. */
export async function createSignedInUser(app: FastifyInstance, ctx: AppContext, options: CreateUserOptions = {}) {
  const user = await createUser(ctx, options);
  const token = await login(app, user.username);
  return { user, token, headers: authHeader(token) };
}
