// Verification documents (decisions.md sections 2 and 9): PDF, JPEG and PNG only, judged by
// content; 10 MB at most; uploaded by their owner only; downloaded by the owner and admins.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, type Documents, type User, type UserWithDocuments } from '@karoo/shared';
import {
  authHeader,
  createSignedInUser,
  createTestApp,
  createUser,
  documentUpload,
  expectError,
  expectOk,
  jpegBytes,
  login,
  multipart,
  pdfBytes,
  pngBytes,
  type TestApp,
} from './helpers';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

interface UploadAnswer {
  documents: Documents;
  verification_status: User['verification_status'];
}

const upload = (id: string, headers: Record<string, string>, body: { payload: Buffer; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: `/api/user/${id}/upload-document`, headers: { ...headers, ...body.headers }, payload: body.payload });
const download = (id: string, type: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/user/${id}/documents/${type}`, headers });

describe('POST /api/user/{id}/upload-document', () => {
  it.each<[string, () => Buffer, string, string]>([
    ['PDF', () => pdfBytes(), 'id.pdf', 'application/pdf'],
    ['PNG', pngBytes, 'id.png', 'image/png'],
    ['JPEG', jpegBytes, 'id.jpg', 'image/jpeg'],
  ])('accepts a %s and stores it privately', async (_kind, bytes, filename, mime) => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const data = bytes();
    const res = await upload(user.id, headers, documentUpload('id_document', data, filename, mime));
    const answer = expectOk<UploadAnswer>(res);
    const row = await t.db.selectFrom('user_documents').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const stored = (await t.ctx.privateFiles.read(row.storage_key))!;
    expect(answer.documents.id_document).toMatchObject({ mime_type: mime, size: stored.length, originalName: filename });
    expect(answer.documents.id_document!.url).toBe(`/api/user/${user.username}/documents/id_document`);
    expect(row.storage_key).not.toMatch(/public/);
    // A PDF is kept as it came; a picture is re-encoded without its metadata (image-uploads.test.ts).
    if (mime === 'application/pdf') expect(stored).toEqual(data);
    else expect((await sharp(stored).metadata()).format).toBe(mime === 'image/png' ? 'png' : 'jpeg');
  });

  it('judges the type by content: the client\u2019s claimed type does not matter', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const answer = expectOk<UploadAnswer>(await upload(user.id, headers, documentUpload('driver_license', pngBytes(), 'licence.bin', 'application/octet-stream')));
    expect(answer.documents.driver_license?.mime_type).toBe('image/png');
  });

  it.each<[string, Buffer, number, string]>([
    ['a text file named .pdf', Buffer.from('just some text pretending to be a PDF'), 400, '"id.pdf" is not a PDF, JPEG or PNG file.'],
    ['an HTML page', Buffer.from('<!doctype html><script>alert(1)</script>'), 400, '"id.pdf" is not a PDF, JPEG or PNG file.'],
    [
      'a WEBP image',
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(16)]),
      415,
      'Only JPEG, PNG, and PDF files are allowed: "id.pdf" is a WEBP file.',
    ],
  ])('refuses %s with %i, naming the file', async (_kind, data, status, message) => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await upload(user.id, headers, documentUpload('id_document', data, 'id.pdf', 'application/pdf')), status, message);
    expect(await t.db.selectFrom('user_documents').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const big = Buffer.concat([pdfBytes(), Buffer.alloc(MAX_UPLOAD_BYTES)]);
    const error = expectError(await upload(user.id, headers, documentUpload('id_document', big)), 413);
    expect(error.message).toMatch(/10\s?MB/);
    expect(await t.db.selectFrom('user_documents').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('accepts a file of exactly 10 MB', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const pdf = pdfBytes();
    const exact = Buffer.concat([pdf, Buffer.alloc(MAX_UPLOAD_BYTES - pdf.length)]);
    expect(expectOk<UploadAnswer>(await upload(user.id, headers, documentUpload('id_document', exact))).documents.id_document?.size).toBe(MAX_UPLOAD_BYTES);
  });

  it('needs a known document type (400)', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const missing = expectError(await upload(user.id, headers, documentUpload(undefined, pdfBytes())), 400);
    expect(missing.errors?.type).toBeDefined();
    expectError(await upload(user.id, headers, documentUpload('passport', pdfBytes())), 400);
  });

  it('needs a file (400), and a multipart body (400)', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await upload(user.id, headers, multipart([{ name: 'type', value: 'id_document' }])), 400, 'Please choose a file to upload.');
    expectError(await upload(user.id, headers, documentUpload('id_document', Buffer.alloc(0))), 400);
    expectError(
      await t.app.inject({ method: 'POST', url: `/api/user/${user.id}/upload-document`, headers, payload: { type: 'id_document' } }),
      400,
    );
  });

  it('answers 404 for another user\u2019s id and 403 when an admin uploads for someone', async () => {
    const { headers } = await createSignedInUser(t.app, t.ctx);
    const other = await createUser(t.ctx);
    expectError(await upload(other.id, headers, documentUpload('id_document', pdfBytes())), 404);
    expectError(await upload(other.id, admin.headers, documentUpload('id_document', pdfBytes())), 403);
    expect(await t.db.selectFrom('user_documents').select('id').where('user_id', '=', other.id).execute()).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const other = await createUser(t.ctx);
    expectError(await upload(other.id, {}, documentUpload('id_document', pdfBytes())), 401);
  });

  it('replaces an earlier upload of the same type while unverified', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectOk(await upload(user.id, headers, documentUpload('id_document', pdfBytes('first'))));
    const first = await t.db.selectFrom('user_documents').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expectOk(await upload(user.id, headers, documentUpload('id_document', pngBytes(), 'id.png', 'image/png')));
    const rows = await t.db.selectFrom('user_documents').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mime_type).toBe('image/png');
    expect(await t.ctx.privateFiles.read(first.storage_key)).toBeNull();
  });

  it('moves an admin-created pending_upload user to pending_verification once ID, licence and bank letter are in', async () => {
    const username = `newbie_${Date.now().toString(36)}`;
    const created = expectOk<User>(
      await t.app.inject({
        method: 'POST',
        url: '/api/user/create',
        headers: admin.headers,
        payload: { username, email: `${username}@example.co.za`, name: 'New Bie', phone_number: '+27 82 555 1234', address: '1 Main Rd', password: 'secret1' },
      }),
      201,
    );
    expect(created.verification_status).toBe('pending_upload');
    const headers = authHeader(await login(t.app, username, 'secret1'));

    const steps: [string, User['verification_status']][] = [
      ['id_document', 'pending_upload'],
      ['proof_of_address', 'pending_upload'],
      ['driver_license', 'pending_upload'],
      ['bank_confirmation_letter', 'pending_verification'],
    ];
    for (const [type, expected] of steps) {
      const answer = expectOk<UploadAnswer>(await upload(username, headers, documentUpload(type, pdfBytes(type))));
      expect(answer.verification_status, type).toBe(expected);
    }
    const me = expectOk<User>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers }));
    expect(me.verification_status).toBe('pending_verification');
  });

  it('moves a rejected user back to pending_verification when the documents are in', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { verification_status: 'rejected', withDocuments: ['id_document', 'driver_license'] });
    expect(expectOk<UploadAnswer>(await upload(user.id, headers, documentUpload('bank_confirmation_letter', pdfBytes()))).verification_status).toBe(
      'pending_verification',
    );
  });

  it('refuses to replace a verified user\u2019s document (403)', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', withDocuments: true });
    expectError(await upload(user.id, headers, documentUpload('id_document', pdfBytes())), 403);
  });
});

describe('GET /api/user/{id}/documents/{type}', () => {
  it('gives the owner and admins the bytes with the right content type', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const png = pngBytes();
    expectOk(await upload(user.id, headers, documentUpload('driver_license', png, 'licence.png', 'image/png')));

    for (const viewer of [headers, admin.headers]) {
      const res = await download(user.username, 'driver_license', viewer);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.png"$/);
      expect(res.headers['cache-control']).toMatch(/no-store/);
      expect((await sharp(res.rawPayload).metadata()).format).toBe('png');
    }
    const inline = await download(user.id, 'driver_license?inline=1', headers);
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-disposition']).toMatch(/^inline; /);
  });

  it('serves a PDF as application/pdf', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { withDocuments: ['id_document'] });
    const res = await download(user.id, 'id_document', headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const viewed = expectOk<UserWithDocuments>(await t.app.inject({ method: 'GET', url: `/api/user/get/${user.id}`, headers }));
    expect(viewed.documents.id_document?.size).toBe(res.rawPayload.length);
  });

  it('answers 404 for another user\u2019s document, a missing document and an unknown type', async () => {
    const owner = await createUser(t.ctx, { withDocuments: ['id_document'] });
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await download(owner.id, 'id_document', headers), 404);
    expectError(await download(user.id, 'id_document', headers), 404, 'Document not found');
    expectError(await download(owner.id, 'driver_license', admin.headers), 404);
    expect((await download(user.id, 'selfie', headers)).statusCode).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const owner = await createUser(t.ctx, { withDocuments: ['id_document'] });
    expectError(await download(owner.id, 'id_document', {}), 401);
  });
});
