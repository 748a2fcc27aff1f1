// GET /api/user/getList as the admin Users tab reads it (issue 10): searched, filtered and paged on
// the server, newest first with a stable tie-break, the filtered total and the counters (one
// aggregate over every user not deleted) in meta. Admins only.
import type { AdminUserListMeta, UserWithDocuments } from '@karoo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, createUser, expectError, uniqueName, type TestApp } from './helpers';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
let customer: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

async function getList(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/user/getList?${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { success: true; data: UserWithDocuments[]; meta: AdminUserListMeta };
}

describe('GET /api/user/getList (paged)', () => {
  it('pages newest first with a stable order, and reports the filtered total', async () => {
    const tag = uniqueName('pg');
    const same = new Date('2026-01-01T10:00:00Z');
    // Seven users: five created at the same instant (the id breaks the tie), two later.
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createUser(t.ctx, { username: `${tag}_${i}`, overrides: { created_at: same } }));
    const newer = await createUser(t.ctx, { username: `${tag}_new`, overrides: { created_at: new Date('2026-02-01T10:00:00Z') } });
    const newest = await createUser(t.ctx, { username: `${tag}_newest`, overrides: { created_at: new Date('2026-03-01T10:00:00Z') } });

    const first = await getList(`search=${tag}&page=1&limit=3`);
    const second = await getList(`search=${tag}&page=2&limit=3`);
    const third = await getList(`search=${tag}&page=3&limit=3`);
    expect(first.meta).toMatchObject({ total: 7, page: 1, limit: 3 });
    expect(third.meta.total).toBe(7);
    expect(first.data.map((u) => u.id).slice(0, 2)).toEqual([newest.id, newer.id]);
    const ids = [...first.data, ...second.data, ...third.data].map((u) => u.id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
    expect(ids.slice(2)).toEqual(made.map((u) => u.id).sort().reverse());
    expect(first.data[0]).toHaveProperty('documents');

    // Asking again gives the same order.
    expect((await getList(`search=${tag}&page=2&limit=3`)).data.map((u) => u.id)).toEqual(second.data.map((u) => u.id));
    // A page past the end is empty, not an error.
    expect((await getList(`search=${tag}&page=9&limit=3`)).data).toEqual([]);
  });

  it('defaults to page 1 of 25 and refuses bad paging (400)', async () => {
    const { meta } = await getList('');
    expect(meta).toMatchObject({ page: 1, limit: 25 });
    for (const bad of ['page=0', 'limit=0', 'limit=101', 'page=x']) {
      expectError(await t.app.inject({ method: 'GET', url: `/api/user/getList?${bad}`, headers: admin.headers }), 400);
    }
  });

  it('searches name, username and email case-insensitively, LIKE wildcards literally, and filters status and role', async () => {
    const tag = uniqueName('sq');
    const a = await createUser(t.ctx, { full_name: `Thandi ${tag.toUpperCase()}`, verification_status: 'verified' });
    const b = await createUser(t.ctx, { username: `${tag}_b`, role: 'host', verification_status: 'rejected' });
    const c = await createUser(t.ctx, { email: `${tag.toUpperCase()}.c@example.co.za`, verification_status: 'pending_upload' });
    const pct = await createUser(t.ctx, { full_name: `Percent 100%_${tag}` });
    const ids = async (query: string) => (await getList(query)).data.map((u) => u.id).sort();

    expect(await ids(`search=${tag.toUpperCase()}`)).toEqual([a.id, b.id, c.id, pct.id].sort());
    expect(await ids(`search=${encodeURIComponent('100%_')}`)).toEqual([pct.id]);
    expect(await ids(`search=${tag}&status=verified`)).toEqual([a.id]);
    expect(await ids(`search=${tag}&role=host`)).toEqual([b.id]);
    expect(await ids(`search=${tag}&status=pending_upload&role=customer`)).toEqual([c.id]);
    expect((await getList(`search=${tag}&status=rejected`)).meta.total).toBe(1);
  });

  it('counts every user not deleted, whatever the filters, as independent counts do', async () => {
    const gone = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    await t.db.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', gone.id).execute();
    await createUser(t.ctx, { role: 'host', verification_status: 'pending_verification' });

    const { meta } = await getList('search=nobody-matches-this&status=verified');
    expect(meta.total).toBe(0);

    const live = await t.db.selectFrom('users').select(['role', 'verification_status']).where('deleted_at', 'is', null).execute();
    const count = (keep: (u: (typeof live)[number]) => boolean) => live.filter(keep).length;
    expect(meta.counts).toEqual({
      total: live.length,
      pending_verification: count((u) => u.verification_status === 'pending_verification'),
      verified: count((u) => u.verification_status === 'verified'),
      rejected: count((u) => u.verification_status === 'rejected'),
      pending_upload: count((u) => u.verification_status === 'pending_upload'),
      admins: count((u) => u.role === 'admin'),
      hosts: count((u) => u.role === 'host'),
      customers: count((u) => u.role === 'customer'),
    });
    expect((await getList('')).meta.total).toBe(live.length);
    expect((await getList('limit=100')).data.map((u) => u.id)).not.toContain(gone.id);
  });

  it('is for admins only (403) and needs a sign-in (401)', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/getList?page=1', headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/getList?page=1' }), 401);
  });
});
