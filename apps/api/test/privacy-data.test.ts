// POPIA rights in the product (issue 24, decision 049): the data export holds every personal table's
// rows of the person and nobody else's, checked against the database's own list of tables; the
// download is the owner's alone and only for 24 hours; consents and the versions of the terms are
// recorded; marketing mail is never sent without consent; an administrator's view of a document is
// shown to its owner by role and date; corrections of verified details are answered by an
// administrator, audited.
import { sql } from 'kysely';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, CURRENT_POLICIES, MARKETING_CONSENT, todayIn, type CorrectionRequest, type DataExport, type PolicyState, type PrivacyOverview } from '@karoo/shared';
import { EXCLUDED_TABLES, PERSONAL_TABLES } from '../src/modules/privacy';
import { inTransaction } from '../src/events/domain-events';
import { queueMail } from '../src/lib/mail';
import { authHeader, createSignedInUser, createTestApp, DAY, login, expectError, expectOk, HOUR, jpegBytes, loginResponse, MINUTE, type TestApp } from './helpers';
import { createTestBooking, createTestCar, createTestReview, newCarBody } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let alice: Signed; // the person who asks for her data: a renter and a host
let bob: Signed; // someone with nothing to do with her
let carla: Signed; // the host Alice rents from, and who rents Alice's car
const BASE = '2030-05-01T08:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  alice = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', withDocuments: true, overrides: { phone_number: '+27 82 111 2222' } });
  bob = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', withDocuments: true, overrides: { phone_number: '+27 83 999 8888' } });
  carla = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', overrides: { phone_number: '+27 84 333 4444' } });
});
afterAll(() => t.close());

const get = <T>(who: Signed, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers }).then((res) => expectOk<T>(res));

/** A car with a real photo in the public store. */
async function carWithPhoto(owner: Signed) {
  const car = await createTestCar(t.ctx, owner.user);
  const key = `cars/${car.id}-front.jpg`;
  await t.ctx.publicFiles.put(key, jpegBytes());
  await t.db.updateTable('cars').set({ images: JSON.stringify([`/uploads/${key}`]) }).where('id', '=', car.id).execute();
  return car;
}

/** Bookings, messages, reviews and notifications on both sides, for Alice and (separately) for Bob. */
async function livedIn(person: Signed, other: Signed, start: string) {
  const own = await carWithPhoto(person);
  const theirs = await createTestCar(t.ctx, other.user);
  const trip = await createTestBooking(t.ctx, theirs, person.user, { start, days: 2, status: 'confirmed' });
  await createTestBooking(t.ctx, own, other.user, { start, days: 3 });
  expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/${trip.id}/messages`, headers: person.headers, payload: { body: 'What time can I collect?' } }), 201);
  expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/${trip.id}/messages`, headers: other.headers, payload: { body: 'From 9 is fine' } }), 201);
  await createTestReview(t.ctx, theirs, person.user, 5, 'Lovely car');
}

/** Sessions end as the clock moves a day: everyone signs in again. */
async function signInAgain() {
  for (const who of [admin, alice, bob, carla]) who.headers = authHeader(await login(t.app, who.user.username, who.user.password));
}

async function requestAndBuildExport(who: Signed): Promise<DataExport> {
  const created = expectOk<DataExport>(await t.app.inject({ method: 'POST', url: '/api/privacy/exports', headers: who.headers }), 202);
  expect(created.status).toBe('preparing');
  await t.ctx.jobs.runDue('privacy.export');
  const [latest] = await get<DataExport[]>(who, '/api/privacy/exports');
  return latest!;
}

async function download(who: Signed, id: string) {
  return t.app.inject({ method: 'GET', url: `/api/privacy/exports/${id}/download`, headers: who.headers });
}

describe('the registry of personal tables', () => {
  it('names every table with a column referring to a person, a booking or a car, or holding personal details; a new one fails here', async () => {
    const referring = await sql<{ table_name: string }>`
      SELECT DISTINCT kcu.table_name
      FROM information_schema.table_constraints tc
      JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
      JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
      WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND ccu.table_name IN ('users', 'bookings', 'cars')
    `.execute(t.db);
    const personalColumns = await sql<{ table_name: string }>`
      SELECT DISTINCT c.table_name
      FROM information_schema.columns c JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
      WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE'
        AND c.column_name ~ '(email|phone|address|full_name|id_number|user_agent|username|bank_account|^ip$|^key$|_by$|_id$)'
        AND c.table_name NOT LIKE 'kysely_%'
    `.execute(t.db);
    const found = new Set([...referring.rows, ...personalColumns.rows].map((row) => row.table_name));
    found.add('users');
    const registered = new Set(PERSONAL_TABLES.map((entry) => entry.table));
    const missing = [...found].filter((table) => !registered.has(table) && !(table in EXCLUDED_TABLES)).sort();
    expect(missing, 'tables with personal data that are neither exported (privacy.registry.ts PERSONAL_TABLES) nor excluded with a reason').toEqual([]);
    for (const [table, reason] of Object.entries(EXCLUDED_TABLES)) expect(reason.length, table).toBeGreaterThan(20);
  });
});

describe('download everything', () => {
  let exported: DataExport;
  let zip: Record<string, Uint8Array>;
  let data: { user_id: string; tables: Record<string, { rows: Record<string, unknown>[] }>; files: { path: string }[] };

  beforeAll(async () => {
    await livedIn(alice, carla, '2030-06-01');
    await livedIn(bob, carla, '2030-07-01');
    // A sign-in of each (sign-in history), and the admin opening Alice's ID (a view she will see).
    await loginResponse(t.app, alice.user.username, alice.user.password);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: bob.headers, payload: { granted: true } }));
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: alice.headers, payload: { granted: false } }));
    exported = await requestAndBuildExport(alice);
    const response = await download(alice, exported.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['cache-control']).toBe('private, no-store');
    zip = unzipSync(new Uint8Array(response.rawPayload));
    data = JSON.parse(strFromU8(zip['data.json']!)) as typeof data;
  });

  it('is built by the job, ready for 24 hours, and the person is emailed', async () => {
    expect(exported).toMatchObject({ status: 'ready', ready_at: BASE, expires_at: new Date(Date.parse(BASE) + DAY).toISOString() });
    const mail = await t.outbox.latest(alice.user.email);
    expect(mail?.subject).toBe('Your Karoo data is ready to download');
    expect(mail?.text).toContain('http://karoo.test/profile/privacy#download');
  });

  it('holds every row of every personal table that refers to the person, by any of its person columns', async () => {
    const fks = await sql<{ table_name: string; column_name: string }>`
      SELECT kcu.table_name, kcu.column_name
      FROM information_schema.table_constraints tc
      JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
      JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
      WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND ccu.table_name = 'users'
    `.execute(t.db);
    let checked = 0;
    for (const { table_name: table, column_name: column } of fks.rows) {
      if (table in EXCLUDED_TABLES) continue;
      const rows = await sql<{ id: string }>`SELECT * FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${alice.user.id}::uuid`.execute(t.db);
      // The mail saying the export is ready is written once it is built, after the data was read.
      const before = rows.rows.filter((row) => (row as { subject?: string }).subject !== 'Your Karoo data is ready to download');
      if (before.length === 0) continue;
      const exportedRows = data.tables[table]?.rows ?? [];
      expect(exportedRows.length, `${table}.${column}`).toBeGreaterThanOrEqual(before.length);
      if ('id' in before[0]!) {
        const ids = new Set(exportedRows.map((row) => row.id));
        for (const row of before) expect(ids.has(row.id), `${table} row ${row.id} (by ${column})`).toBe(true);
      }
      checked += 1;
    }
    // The account, documents, cars, bookings, messages, reviews, sessions, consents... were all there to check.
    expect(checked).toBeGreaterThanOrEqual(10);
    for (const table of ['users', 'user_documents', 'cars', 'bookings', 'booking_messages', 'reviews', 'sessions', 'privacy_consents', 'data_exports', 'mail_outbox']) {
      expect(data.tables[table]?.rows.length, table).toBeGreaterThan(0);
    }
    expect(data.tables.users!.rows).toEqual([expect.objectContaining({ id: alice.user.id, email: alice.user.email, phone_number: '+27 82 111 2222' })]);
  });

  it('holds nobody else’s details, and no password or token hashes', () => {
    const text = strFromU8(zip['data.json']!);
    for (const secret of [bob.user.id, bob.user.username, bob.user.email, '+27 83 999 8888', carla.user.email, '+27 84 333 4444']) expect(text).not.toContain(secret);
    for (const column of ['password_hash', 'token_hash', 'unsubscribe_token', 'storage_key']) expect(text).not.toContain(`"${column}"`);
    // The other party of her bookings appears only as an id on the booking.
    expect(data.user_id).toBe(alice.user.id);
  });

  it('holds the files she uploaded: her documents and her car’s photo', () => {
    const paths = Object.keys(zip).sort();
    expect(paths).toEqual(expect.arrayContaining(['data.json', 'files/documents/id_document.pdf', 'files/documents/driver_license.pdf', 'files/documents/bank_confirmation_letter.pdf']));
    expect(paths.some((path) => /^files\/cars\/.+\/photo-1\.jpg$/.test(path))).toBe(true);
    expect(strFromU8(zip['files/documents/id_document.pdf']!.subarray(0, 5))).toBe('%PDF-');
    expect(data.files.map((file) => file.path).sort()).toEqual(paths.filter((path) => path !== 'data.json').sort());
  });

  it('is a 404 to anyone else, even an administrator, and to the person after 24 hours; then its file is deleted', async () => {
    expectError(await download(bob, exported.id), 404);
    expectError(await download(admin, exported.id), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/api/privacy/exports/${exported.id}/download` }), 401);
    t.clock.advance(DAY - MINUTE);
    expect((await download(alice, exported.id)).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    await signInAgain();
    expectError(await download(alice, exported.id), 404, /expired/);
    expect((await get<DataExport[]>(alice, '/api/privacy/exports'))[0]).toMatchObject({ id: exported.id, status: 'expired' });
    const row = await t.db.selectFrom('data_exports').selectAll().where('id', '=', exported.id).executeTakeFirstOrThrow();
    await t.ctx.jobs.runDue('privacy.exports.expire');
    const { expireExports } = await import('../src/modules/privacy');
    await expireExports(t.ctx);
    expect(await t.ctx.privateFiles.read(row.storage_key!)).toBeNull();
    expect(await t.db.selectFrom('data_exports').select(['status', 'storage_key']).where('id', '=', exported.id).executeTakeFirstOrThrow()).toEqual({ status: 'expired', storage_key: null });
  });

  it('prepares one export at a time: asking again while it is built returns the same request', async () => {
    const first = expectOk<DataExport>(await t.app.inject({ method: 'POST', url: '/api/privacy/exports', headers: carla.headers }), 202);
    const again = expectOk<DataExport>(await t.app.inject({ method: 'POST', url: '/api/privacy/exports', headers: carla.headers }), 202);
    expect(again.id).toBe(first.id);
    await t.ctx.jobs.runDue('privacy.export');
    expect((await get<DataExport[]>(carla, '/api/privacy/exports')).map((e) => e.status)).toEqual(['ready']);
  });
});

describe('what is held, and who viewed the documents', () => {
  it('counts each category from the real rows and shows an administrator’s view of a document by role and date only', async () => {
    t.clock.advance(HOUR);
    expect((await t.app.inject({ method: 'GET', url: `/api/user/${alice.user.id}/documents/id_document`, headers: admin.headers })).statusCode).toBe(200);
    // Her own look is not a view to report.
    expect((await t.app.inject({ method: 'GET', url: `/api/user/${alice.user.id}/documents/id_document`, headers: alice.headers })).statusCode).toBe(200);
    const overview = await get<PrivacyOverview>(alice, '/api/privacy/overview');
    const count = (key: string) => overview.categories.find((c) => c.key === key)?.count;
    expect(count('account')).toBe(1);
    expect(count('documents')).toBe(3);
    expect(count('bank')).toBe(1);
    expect(count('cars')).toBe(1); // her own car; the one she rented is Carla's
    expect(count('reviews')).toBe(1);
    expect(count('sign_in')).toBeGreaterThanOrEqual(2);
    for (const category of overview.categories) expect(category.purpose.length).toBeGreaterThan(10);
    expect(overview.document_views).toEqual([{ role: 'Karoo administrator', document: expect.stringMatching(/ID/i), viewed_at: expect.any(String) }]);
    expect(JSON.stringify(overview)).not.toContain(admin.user.username);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'user.document_viewed').execute();
    expect(audit).toEqual([expect.objectContaining({ admin_id: admin.user.id, target_id: alice.user.id, after: { document: 'id_document' } })]);
  });
});

describe('consent and the versions of the terms', () => {
  const register = (username: string, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { username, email: `${username}@example.co.za`, full_name: 'New Person', password: 'Karoo-test-1', terms_accepted: true, privacy_accepted: true, ...extra },
    });

  it('records at sign-up the versions accepted and the marketing choice with its words, no by default', async () => {
    expectOk(await register('dineo_new'), 201);
    expectOk(await register('eli_new', { marketing_opt_in: true }), 201);
    const rows = await t.db
      .selectFrom('privacy_consents as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['u.username', 'c.kind', 'c.version', 'c.wording', 'c.granted', 'c.source', 'c.recorded_at'])
      .where('u.username', 'in', ['dineo_new', 'eli_new'])
      .orderBy('u.username')
      .orderBy('c.kind')
      .execute();
    const now = t.clock.now();
    expect(rows).toEqual([
      { username: 'dineo_new', kind: 'marketing', version: MARKETING_CONSENT.version, wording: MARKETING_CONSENT.wording, granted: false, source: 'register', recorded_at: now },
      { username: 'dineo_new', kind: 'privacy', version: CURRENT_POLICIES.privacy.version, wording: expect.stringContaining('Privacy Notice'), granted: true, source: 'register', recorded_at: now },
      { username: 'dineo_new', kind: 'terms', version: CURRENT_POLICIES.terms.version, wording: expect.stringContaining('Terms and Conditions'), granted: true, source: 'register', recorded_at: now },
      { username: 'eli_new', kind: 'marketing', version: MARKETING_CONSENT.version, wording: MARKETING_CONSENT.wording, granted: true, source: 'register', recorded_at: now },
      { username: 'eli_new', kind: 'privacy', version: CURRENT_POLICIES.privacy.version, wording: expect.any(String), granted: true, source: 'register', recorded_at: now },
      { username: 'eli_new', kind: 'terms', version: CURRENT_POLICIES.terms.version, wording: expect.any(String), granted: true, source: 'register', recorded_at: now },
    ]);
  });

  it('takes an account with no recorded acceptance (the demo seed, accounts before 0026) as having accepted the first recorded version', async () => {
    const policies = await get<PolicyState[]>(carla, '/api/privacy/policies');
    expect(policies.map((p) => [p.kind, p.accepted_version, p.needs_acceptance])).toEqual([
      ['terms', '2025-01', CURRENT_POLICIES.terms.version !== '2025-01'],
      ['privacy', '2025-01', CURRENT_POLICIES.privacy.version !== '2025-01'],
    ]);
  });

  it('asks again when the person’s accepted version is not the current one, and records the new acceptance', async () => {
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', overrides: { privacy_accepted_at: null } });
    // Someone who accepted an older version of the terms, and whose privacy acceptance is not known.
    await t.db.insertInto('privacy_consents').values({ user_id: person.user.id, kind: 'terms', version: '2024-06', wording: 'I agree to the Terms and Conditions (version 2024-06).', granted: true, source: 'migration', recorded_at: t.clock.now() }).execute();
    const before = await get<PolicyState[]>(person, '/api/privacy/policies');
    expect(before.map((p) => [p.kind, p.accepted_version, p.needs_acceptance])).toEqual([
      ['terms', '2024-06', true],
      ['privacy', null, true],
    ]);
    expectError(await t.app.inject({ method: 'POST', url: '/api/privacy/policies/accept', headers: person.headers, payload: { terms_version: '2024-06', privacy_version: CURRENT_POLICIES.privacy.version } }), 409);
    t.clock.advance(MINUTE);
    const after = expectOk<PolicyState[]>(
      await t.app.inject({ method: 'POST', url: '/api/privacy/policies/accept', headers: person.headers, payload: { terms_version: CURRENT_POLICIES.terms.version, privacy_version: CURRENT_POLICIES.privacy.version } }),
    );
    expect(after.map((p) => [p.kind, p.accepted_version, p.needs_acceptance, p.accepted_at])).toEqual([
      ['terms', CURRENT_POLICIES.terms.version, false, t.clock.now().toISOString()],
      ['privacy', CURRENT_POLICIES.privacy.version, false, t.clock.now().toISOString()],
    ]);
  });
});

describe('the terms in force bind every new agreement (decision 049)', () => {
  it('refuses a booking request and a new listing until the person accepts the current versions, then takes them', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    // They accepted an older version of the terms (a page left open when a new one was published).
    await t.db.insertInto('privacy_consents').values({ user_id: person.user.id, kind: 'terms', version: '2024-06', wording: 'I agree to the Terms and Conditions (version 2024-06).', granted: true, source: 'migration', recorded_at: t.clock.now() }).execute();
    const start = addDays(todayIn(t.clock.now()), 30);
    const booking = { car_username: car.car_username, start_date: start, end_date: addDays(start, 1), start_time: '09:00', end_time: '17:00', is_hourly_booking: false };
    const book = () => t.app.inject({ method: 'POST', url: '/api/booking/create', headers: person.headers, payload: booking });
    const list = () => t.app.inject({ method: 'POST', url: `/api/car/newCar/${person.user.username}`, headers: person.headers, payload: newCarBody() });
    const refused = expectError(await book(), 409, "To continue, accept Karoo's current Terms and Conditions.");
    expect(refused.errors).toEqual({ policies: 'Accept the current Terms and Conditions first.' });
    expectError(await list(), 409, /accept Karoo's current Terms and Conditions/);
    expect(await t.db.selectFrom('bookings').select('id').where('renter_id', '=', person.user.id).execute()).toEqual([]);
    // An administrator acting for them is not asked (the audit log records who acted); they are, at their next sign-in.
    const forThem = { ...booking, start_date: addDays(start, 10), end_date: addDays(start, 11), user_username: person.user.username };
    expectOk(await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: admin.headers, payload: forThem }), 201);

    t.clock.advance(MINUTE);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/privacy/policies/accept', headers: person.headers, payload: { terms_version: CURRENT_POLICIES.terms.version, privacy_version: CURRENT_POLICIES.privacy.version } }));
    expectOk(await book(), 201);
    expectOk(await list(), 201);
  });
});

describe('marketing is never sent without consent', () => {
  it('the mail layer refuses a marketing mail to a person who did not opt in, or who opted out', async () => {
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const attempt = () =>
      inTransaction(t.ctx, (tx) =>
        queueMail(t.ctx, tx, {
          to: person.user.email,
          subject: 'Deals',
          text: 'Buy',
          kind: 'marketing',
          userId: person.user.id,
          headers: { 'List-Unsubscribe': '<http://karoo.test/x>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        }),
      );
    await expect(attempt()).rejects.toMatchObject({ status: 409 });
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: person.headers, payload: { granted: true } }));
    await expect(attempt()).resolves.toEqual(expect.any(String));
    t.clock.advance(MINUTE);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: person.headers, payload: { granted: false } }));
    await expect(attempt()).rejects.toMatchObject({ status: 409 });
    // Without its unsubscribe headers it is refused even with consent.
    await expect(inTransaction(t.ctx, (tx) => queueMail(t.ctx, tx, { to: person.user.email, subject: 'x', text: 'x', kind: 'marketing', userId: person.user.id }))).rejects.toMatchObject({ status: 500 });
  });

  it('news goes only to people who opted in, with one-click unsubscribe headers and link; withdrawn before sending, it is not sent', async () => {
    const yes = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const changedMind = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const no = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    for (const person of [yes, changedMind]) expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: person.headers, payload: { granted: true } }));
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/privacy/marketing', headers: no.headers, payload: { granted: false } }));
    expectError(await t.app.inject({ method: 'POST', url: '/api/admin/privacy/news', headers: yes.headers, payload: { subject: 'News', message: 'New cars in Durban this month' } }), 403);
    t.clock.advance(MINUTE);
    const sent = expectOk<{ queued: number }>(await t.app.inject({ method: 'POST', url: '/api/admin/privacy/news', headers: admin.headers, payload: { subject: 'Karoo news', message: 'New cars in Durban this month.\n\nSee you on the road.' } }));
    expect(sent.queued).toBeGreaterThanOrEqual(2);
    expect(await t.outbox.list(no.user.email)).toEqual([]);
    const queued = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', yes.user.email).executeTakeFirstOrThrow();
    expect(queued.kind).toBe('marketing');
    expect(queued.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(http:\/\/karoo\.test\/api\/privacy\/unsubscribe\?token=[^>]+)>$/.exec(queued.headers?.['List-Unsubscribe'] ?? '')?.[1];
    expect(oneClick).toBeDefined();
    expect(queued.text_body).toMatch(/Unsubscribe: http:\/\/karoo\.test\/unsubscribe\?token=/);

    // changedMind unsubscribes with one click (RFC 8058: a form POST) before the worker sends.
    const mindMail = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', changedMind.user.email).executeTakeFirstOrThrow();
    const url = new URL(/^<([^>]+)>$/.exec(mindMail.headers!['List-Unsubscribe']!)![1]!);
    const unsubscribed = await t.app.inject({ method: 'POST', url: `${url.pathname}${url.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(unsubscribed.statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'POST', url: '/api/privacy/unsubscribe?token=not-a-real-token-at-all' }), 404);
    await t.outbox.drain();
    expect((await t.outbox.latest(yes.user.email))?.status).toBe('kept');
    const withdrawn = await t.outbox.latest(changedMind.user.email);
    expect(withdrawn).toMatchObject({ status: 'failed', sent_at: null });
    expect(withdrawn?.error).toMatch(/withdrew/);
    const overview = await get<PrivacyOverview>(changedMind, '/api/privacy/overview');
    expect(overview.marketing).toMatchObject({ granted: false, wording: MARKETING_CONSENT.wording });
  });
});

describe('corrections of verified details', () => {
  it('a verified person asks, an administrator approves (the field changes, audited) or declines with a note, and the person is told', async () => {
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const unverified = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification' });
    const ask = (who: Signed, payload: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/privacy/corrections', headers: who.headers, payload });
    expectError(await ask(unverified, { field: 'id_number', proposed_value: '8001015009087', reason: 'A digit is wrong' }), 409, /yourself/);
    expectError(await ask(person, { field: 'id_number', proposed_value: '12', reason: 'A digit is wrong' }), 400);
    const idRequest = expectOk<CorrectionRequest>(await ask(person, { field: 'id_number', proposed_value: '8001015009087', reason: 'A digit is wrong' }), 201);
    expect(idRequest).toMatchObject({ status: 'open', current_value: '9001015800085', proposed_value: '8001015009087' });
    expectError(await ask(person, { field: 'id_number', proposed_value: '8001015009087', reason: 'Again please' }), 409);
    t.clock.advance(MINUTE);
    const nameRequest = expectOk<CorrectionRequest>(await ask(person, { field: 'full_name', proposed_value: 'Someone Else', reason: 'Nickname' }), 201);

    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/privacy/corrections', headers: person.headers }), 403);
    const open = await get<{ id: string; user: { username: string } }[]>(admin, '/api/admin/privacy/corrections');
    expect(open.filter((r) => r.user.username === person.user.username).map((r) => r.id)).toEqual([idRequest.id, nameRequest.id]);

    const decide = (id: string, payload: Record<string, string>) => t.app.inject({ method: 'POST', url: `/api/admin/privacy/corrections/${id}/decision`, headers: admin.headers, payload });
    expectOk(await decide(idRequest.id, { decision: 'approve', note: 'Checked against your ID document' }));
    expectError(await decide(idRequest.id, { decision: 'decline', note: 'Changed my mind' }), 409);
    expectOk(await decide(nameRequest.id, { decision: 'decline', note: 'Your ID shows your full name' }));

    const user = await t.db.selectFrom('users').select(['id_number', 'full_name']).where('id', '=', person.user.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ id_number: '8001015009087', full_name: person.user.full_name });
    const audit = await t.db.selectFrom('audit_log').select(['action', 'before', 'after', 'reason']).where('target_id', '=', person.user.id).orderBy('seq').execute();
    expect(audit).toEqual([
      { action: 'user.updated', before: { id_number: '9001015800085' }, after: { id_number: '8001015009087' }, reason: null },
      { action: 'privacy.correction_decided', before: expect.objectContaining({ status: 'open' }), after: expect.objectContaining({ field: 'id_number', status: 'approved' }), reason: 'Checked against your ID document' },
      { action: 'privacy.correction_decided', before: expect.objectContaining({ status: 'open' }), after: expect.objectContaining({ field: 'full_name', status: 'declined' }), reason: 'Your ID shows your full name' },
    ]);
    const notifications = await t.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', person.user.id).orderBy('seq').execute();
    expect(notifications.map((n) => n.title)).toEqual(['Your ID number was corrected', 'Your correction request was declined']);
    expect(notifications[1]!.message).toContain('Your ID shows your full name');
    const mine = await get<CorrectionRequest[]>(person, '/api/privacy/corrections');
    expect(mine.map((r) => [r.field, r.status])).toEqual(
      expect.arrayContaining([
        ['id_number', 'approved'],
        ['full_name', 'declined'],
      ]),
    );
  });
});
