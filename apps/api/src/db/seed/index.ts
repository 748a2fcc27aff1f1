// First-start data (decisions.md section 11): a believable demo marketplace, or, with
// SEED_DEMO=false, only the administrator from ADMIN_USERNAME / ADMIN_EMAIL / ADMIN_PASSWORD.
// Runs under an advisory lock so that several instances starting together seed once.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { DOCUMENT_LABELS, type DocumentType } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../schema';
import type { Db } from '../connection';
import { hashPassword } from '../../lib/passwords';
import { seedDemoCars } from './demo-cars';
import { makePdf } from './demo-files';

export const DEMO_PASSWORD = 'Demo@1234';

export interface DemoUser {
  username: string;
  full_name: string;
  email: string;
  role: 'admin' | 'host' | 'customer';
  verification_status: UserRow['verification_status'];
  city?: string;
  phone_number?: string;
  address?: string;
  id_number?: string;
  bank_account_number?: string;
  bank_code?: string;
  documents?: DocumentType[];
}

const ALL_REQUIRED: DocumentType[] = ['id_document', 'driver_license', 'bank_confirmation_letter', 'proof_of_address'];

export const DEMO_USERS: DemoUser[] = [
  { username: 'admin', full_name: 'Karoo Admin', email: 'admin@karoo.co.za', role: 'admin', verification_status: 'verified' },
  {
    username: 'host_thabo', full_name: 'Thabo Mokoena', email: 'thabo@example.co.za', role: 'host', verification_status: 'verified',
    city: 'Johannesburg', phone_number: '+27 82 555 0101', address: '14 Jan Smuts Ave, Rosebank, Johannesburg, 2196',
    id_number: '8503125800089', bank_account_number: '62012345678', bank_code: '250655', documents: ALL_REQUIRED,
  },
  {
    username: 'host_lerato', full_name: 'Lerato Dlamini', email: 'lerato@example.co.za', role: 'host', verification_status: 'verified',
    city: 'Cape Town', phone_number: '+27 83 555 0202', address: '22 Kloof St, Gardens, Cape Town, 8001',
    id_number: '9007230123084', bank_account_number: '1012345678', bank_code: '198765', documents: ALL_REQUIRED,
  },
  {
    username: 'host_ayanda', full_name: 'Ayanda Ngcobo', email: 'ayanda@example.co.za', role: 'host', verification_status: 'verified',
    city: 'Durban', phone_number: '+27 84 555 0303', address: '9 Florida Rd, Morningside, Durban, 4001',
    id_number: '8811150456081', bank_account_number: '4071234567', bank_code: '632005', documents: ALL_REQUIRED,
  },
  {
    username: 'host_johan', full_name: 'Johan van der Merwe', email: 'johan@example.co.za', role: 'host', verification_status: 'verified',
    city: 'Pretoria', phone_number: '+27 72 555 0404', address: '310 Lynnwood Rd, Menlo Park, Pretoria, 0081',
    id_number: '7902085012087', bank_account_number: '9187654321', bank_code: '470010', documents: ALL_REQUIRED,
  },
  {
    username: 'host_zanele', full_name: 'Zanele Khumalo', email: 'zanele@example.co.za', role: 'host', verification_status: 'verified',
    city: 'Gqeberha', phone_number: '+27 76 555 0505', address: '5 Marine Dr, Summerstrand, Gqeberha, 6001',
    id_number: '9204300678082', bank_account_number: '1122334455', bank_code: '051001', documents: ALL_REQUIRED,
  },
  {
    username: 'sipho', full_name: 'Sipho Nkosi', email: 'sipho@example.co.za', role: 'customer', verification_status: 'verified',
    phone_number: '+27 82 555 0606', address: '48 Vilakazi St, Orlando West, Soweto, 1804',
    id_number: '9501015800086', bank_account_number: '62098765432', bank_code: '250655', documents: ALL_REQUIRED,
  },
  {
    username: 'kagiso', full_name: 'Kagiso Molefe', email: 'kagiso@example.co.za', role: 'customer', verification_status: 'verified',
    phone_number: '+27 73 555 0808', address: '7 Nelson Mandela Dr, Mahikeng, 2745',
    id_number: '9306245800081', bank_account_number: '62055566677', bank_code: '250655', documents: ALL_REQUIRED,
  },
  {
    username: 'priya', full_name: 'Priya Naidoo', email: 'priya@example.co.za', role: 'customer', verification_status: 'verified',
    phone_number: '+27 79 555 0909', address: '31 Ridge Rd, Berea, Durban, 4001',
    id_number: '9102110234086', bank_account_number: '1098765432', bank_code: '198765', documents: ALL_REQUIRED,
  },
  {
    username: 'ruan', full_name: 'Ruan Botha', email: 'ruan@example.co.za', role: 'customer', verification_status: 'verified',
    phone_number: '+27 82 555 1010', address: '4 Dorp St, Stellenbosch, 7600',
    id_number: '8707075012083', bank_account_number: '4098712345', bank_code: '632005', documents: ALL_REQUIRED,
  },
  {
    username: 'aisha', full_name: 'Aisha Patel', email: 'aisha@example.co.za', role: 'customer', verification_status: 'verified',
    phone_number: '+27 84 555 1111', address: '19 Main Rd, Claremont, Cape Town, 7708',
    id_number: '9611200345087', bank_account_number: '9012345678', bank_code: '470010', documents: ALL_REQUIRED,
  },
  {
    username: 'naledi', full_name: 'Naledi Mahlangu', email: 'naledi@example.co.za', role: 'customer', verification_status: 'pending_verification',
    phone_number: '+27 71 555 0707', address: '12 Church St, Bloemfontein, 9301',
    id_number: '9809120234085', bank_account_number: '1234567890', bank_code: '678910',
    documents: ['id_document', 'driver_license', 'bank_confirmation_letter'],
  },
];

async function insertDemoUser(ctx: AppContext, db: Db, user: DemoUser, passwordHash: string) {
  // Relative to the app's clock, so a pinned test clock (KAROO_TEST_NOW) places the history too.
  const now = ctx.clock.now();
  const monthsAgo = (n: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1 + (n % 27), 8));
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      email: user.email,
      password_hash: passwordHash,
      full_name: user.full_name,
      phone_number: user.phone_number,
      address: user.address,
      id_number: user.id_number,
      bank_account_number: user.bank_account_number,
      bank_code: user.bank_code,
      role: user.role,
      user_type: user.role === 'customer' ? null : user.role,
      verification_status: user.verification_status,
      verified_at: user.verification_status === 'verified' ? monthsAgo(5) : null,
      host_since: user.role === 'host' ? monthsAgo(14) : null,
      terms_accepted_at: monthsAgo(18),
      privacy_accepted_at: monthsAgo(18),
      created_at: monthsAgo(18),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();

  for (const type of user.documents ?? []) {
    const pdf = makePdf([
      `${DOCUMENT_LABELS[type]} (demo)`,
      `Name: ${user.full_name}`,
      `Username: ${user.username}`,
      'Generated demo document for the Karoo sandbox.',
    ]);
    const key = `users/${row.id}/${type}-${randomBytes(8).toString('hex')}.pdf`;
    await ctx.privateFiles.put(key, pdf);
    await db
      .insertInto('user_documents')
      .values({ user_id: row.id, type, storage_key: key, original_name: `${type}.pdf`, mime_type: 'application/pdf', size_bytes: pdf.length, uploaded_at: monthsAgo(6) })
      .execute();
  }
  return row.id;
}

export async function seedDemo(ctx: AppContext, db: Db): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids: Record<string, string> = {};
  for (const user of DEMO_USERS) ids[user.username] = await insertDemoUser(ctx, db, user, passwordHash);
  const created_at = ctx.clock.now();
  await db
    .insertInto('notifications')
    .values([
      { user_id: ids.sipho!, type: 'account_verified', title: 'Account verified', message: 'Your Karoo account has been verified. You can now book cars and list your own.', link: '/dashboard', created_at },
      { user_id: ids.naledi!, type: 'welcome', title: 'Welcome to Karoo', message: 'Your documents are in. An administrator will review your account shortly.', link: '/profile', created_at },
    ])
    .execute();
  await seedDemoCars(ctx, db, ids);
  // Fresh statistics, so the planner chooses the browse indexes from the first request (the
  // embedded database has no autovacuum to gather them).
  await sql`ANALYZE`.execute(db);
}

export async function seedOnFirstStart(ctx: AppContext, logger: FastifyBaseLogger): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(421337)`.execute(trx);
    const existing = await trx.selectFrom('users').select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    if (Number(existing.count) > 0) return;
    if (ctx.env.SEED_DEMO) {
      await seedDemo(ctx, trx);
      logger.info(`demo data seeded: sign in as admin, host_thabo, host_lerato, sipho or naledi with ${DEMO_PASSWORD}`);
    } else {
      await trx
        .insertInto('users')
        .values({
          username: ctx.env.ADMIN_USERNAME,
          email: ctx.env.ADMIN_EMAIL,
          password_hash: await hashPassword(ctx.env.ADMIN_PASSWORD!),
          full_name: 'Administrator',
          role: 'admin',
          user_type: 'admin',
          verification_status: 'verified',
          verified_at: ctx.clock.now(),
        })
        .execute();
      logger.info({ username: ctx.env.ADMIN_USERNAME }, 'administrator account created (SEED_DEMO=false)');
    }
  });
}
