// The rules of trip records (issue 21; docs/decisions/042-trip-records.md): who may record a
// check-in or check-out and when, who may read them and their photos (the booking's host and
// renter, and admins, whose reading is audited), and disputes: opened by the host with photos,
// resolved once by an admin with a note (audited). Another user's booking is 404.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  compareTripRecords,
  disputeRefusal,
  isAdmin,
  MAX_TRIP_PHOTOS,
  PHOTO_SLOT_LABELS,
  REQUIRED_PHOTO_SLOTS,
  tripRecordRefusal,
  type BookingTripRecords,
  type Dispute,
  type PhotoSlot,
  type TripComparison,
  type TripParty,
  type TripRecord,
  type TripRecordFields,
  type TripStage,
  type TripWindowBooking,
  type DisputeKind,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { prepareImage, quoteFileName } from '../../lib/images';
import type { UploadedFile } from '../../lib/uploads';
import { findVisibleBooking, type BookingRecord } from '../bookings';
import type { TripBookingRef } from './trips.events';
import * as repo from './trips.repository';

/** A photo as it arrived: which slot it fills and the file. */
export interface UploadedPhoto {
  slot: PhotoSlot;
  file: UploadedFile;
}

const PHOTO_NOT_FOUND = 'Photo not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DISPUTE_NOT_FOUND = 'Dispute not found';

/** The viewer's part in the booking: host, renter, or null for an admin who is neither. */
function partyOf(viewer: UserRow, booking: BookingRecord): TripParty | null {
  if (booking.owner_id === viewer.id) return 'host';
  if (booking.renter_id === viewer.id) return 'renter';
  return null;
}

function refOf(booking: BookingRecord): TripBookingRef {
  return { id: booking.id, booking_number: booking.booking_number, renter_id: booking.renter_id, owner_id: booking.owner_id, car_make: booking.car_make, car_model: booking.car_model };
}

function windowOf(booking: BookingRecord): TripWindowBooking {
  return { ...booking, returned_at: booking.actual_return_date ?? booking.completed_at };
}

const photoUrl = (id: string) => `/api/trip-photos/${id}`;

function toPhotos(rows: readonly repo.TripPhotoRow[]) {
  return rows.map((p) => ({ id: p.id, slot: p.slot, url: photoUrl(p.id) }));
}

function toRecord(row: repo.TripRecordRow, photos: readonly repo.TripPhotoRow[]): TripRecord {
  return {
    id: row.id,
    booking_id: row.booking_id,
    stage: row.stage,
    party: row.party,
    author: { id: row.author_id, username: row.author_username },
    odometer_km: row.odometer_km,
    fuel_eighths: row.fuel_eighths,
    note: row.note,
    created_at: new Date(row.created_at).toISOString(),
    photos: toPhotos(photos.filter((p) => p.record_id === row.id)),
  };
}

function toDispute(row: repo.TripDisputeRow, photos: readonly repo.TripPhotoRow[]): Dispute {
  return {
    id: row.id,
    booking_id: row.booking_id,
    booking_number: row.booking_number,
    kind: row.kind,
    description: row.description,
    status: row.status,
    opened_by: { id: row.opened_by, username: row.opened_by_username },
    created_at: new Date(row.created_at).toISOString(),
    resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
    resolution_note: row.resolution_note,
    photos: toPhotos(photos.filter((p) => p.dispute_id === row.id)),
  };
}

/** An admin who is not a party reading a booking's records leaves an audit row (decisions.md section 12). */
async function auditAdminReading(ctx: AppContext, viewer: UserRow, booking: BookingRecord, what: 'records' | 'photo' | 'comparison'): Promise<void> {
  if (partyOf(viewer, booking) || !isAdmin(viewer)) return;
  await inTransaction(ctx, async (tx) => tx.emit({ type: 'trip.records_read', booking: { id: booking.id, booking_number: booking.booking_number }, what }), { by: viewer });
}

/** Stores the photos privately and returns their rows' values; refusals name the photo. */
async function storePhotos(ctx: AppContext, bookingId: string, photos: readonly UploadedPhoto[], owner: { record_id: string | null; dispute_id: string | null }, now: Date, stored: string[]) {
  const rows = [];
  for (const [index, photo] of photos.entries()) {
    const name = quoteFileName(photo.file.filename);
    const label = `${PHOTO_SLOT_LABELS[photo.slot]} photo${name ? ` (${name})` : ''}`;
    const prepared = await prepareImage({ data: photo.file.buffer, label, field: `photo_${photo.slot}` }, 'car_photo');
    const key = `trips/${bookingId}/${randomBytes(12).toString('hex')}.${prepared.ext}`;
    await ctx.privateFiles.put(key, prepared.data);
    stored.push(key);
    rows.push({ booking_id: bookingId, ...owner, slot: photo.slot, position: index, storage_key: key, mime_type: prepared.mime, created_at: now });
  }
  return rows;
}

function checkPhotoCount(photos: readonly UploadedPhoto[], min: number): void {
  if (photos.length > MAX_TRIP_PHOTOS) throw badRequest(`At most ${MAX_TRIP_PHOTOS} photos can be added at once.`, { photos: `At most ${MAX_TRIP_PHOTOS} photos` });
  if (photos.length < min) throw badRequest('Add at least one photo of the damage or missing item.', { photo: 'At least one photo' });
}

/** The four sides are required: a 400 naming the missing ones. */
function checkRequiredSlots(photos: readonly UploadedPhoto[]): void {
  const missing = REQUIRED_PHOTO_SLOTS.filter((slot) => !photos.some((p) => p.slot === slot));
  if (missing.length === 0) return;
  const names = missing.map((slot) => PHOTO_SLOT_LABELS[slot].toLowerCase());
  throw badRequest(`Add a photo of each side of the car: ${names.join(', ')} missing.`, Object.fromEntries(missing.map((slot) => [`photo_${slot}`, 'Photo required'])));
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** The host or renter records the car's state at check-in or check-out, with its photos. */
export async function addRecord(ctx: AppContext, viewer: UserRow, bookingId: string, fields: TripRecordFields, photos: readonly UploadedPhoto[]): Promise<TripRecord> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  const party = partyOf(viewer, booking);
  if (!party) throw forbidden('Only the host or the renter of this trip can record its check-in or check-out.');
  const refusal = tripRecordRefusal(fields.stage, windowOf(booking), ctx.clock.now());
  if (refusal) throw conflict(refusal);
  const existing = await repo.findRecords(ctx.db, booking.id);
  if (existing.some((r) => r.stage === fields.stage && r.party === party)) throw conflict(alreadyRecorded(fields.stage));
  checkPhotoCount(photos, 0);
  checkRequiredSlots(photos);

  // Pictures are decoded and stored before the transaction, which then stays short.
  const id = randomUUID();
  const stored: string[] = [];
  try {
    const rows = await storePhotos(ctx, booking.id, photos, { record_id: id, dispute_id: null }, ctx.clock.now(), stored);
    await inTransaction(ctx, async (tx) => {
      await repo.insertRecord(tx.db, { id, booking_id: booking.id, stage: fields.stage, party, author_id: viewer.id, odometer_km: fields.odometer_km, fuel_eighths: fields.fuel_eighths, note: fields.note, created_at: tx.now });
      await repo.insertPhotos(tx.db, rows.map((row) => ({ ...row, created_at: tx.now })));
      tx.emit({ type: 'trip.recorded', booking: refOf(booking), stage: fields.stage, party });
    }, { by: viewer });
    const records = await listRecordsOf(ctx, booking.id);
    return records.find((r) => r.id === id)!;
  } catch (error) {
    // Files of a record that was not written are not kept.
    await Promise.all(stored.map((key) => ctx.privateFiles.remove(key).catch(() => undefined)));
    if (isUniqueViolation(error)) throw conflict(alreadyRecorded(fields.stage));
    throw error;
  }
}

function alreadyRecorded(stage: TripStage): string {
  return `You have already recorded the ${stage === 'check_in' ? 'check-in' : 'check-out'} of this trip; records cannot be changed.`;
}

async function listRecordsOf(ctx: AppContext, bookingId: string): Promise<TripRecord[]> {
  const [rows, photos] = await Promise.all([repo.findRecords(ctx.db, bookingId), repo.findPhotosOfBooking(ctx.db, bookingId)]);
  return rows.map((row) => toRecord(row, photos));
}

async function listDisputesOf(ctx: AppContext, rows: readonly repo.TripDisputeRow[]): Promise<Dispute[]> {
  const photos = await repo.findPhotosOfDisputes(ctx.db, rows.map((r) => r.id));
  return rows.map((row) => toDispute(row, photos));
}

/** A booking's records and disputes (its parties and admins), with what the viewer may do now. */
export async function bookingTripRecords(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<BookingTripRecords> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  await auditAdminReading(ctx, viewer, booking, 'records');
  const party = partyOf(viewer, booking);
  const records = await listRecordsOf(ctx, booking.id);
  const disputes = await listDisputesOf(ctx, await repo.findDisputesOfBooking(ctx.db, booking.id));
  const now = ctx.clock.now();
  const can = (stage: TripStage) => !!party && !records.some((r) => r.stage === stage && r.party === party) && !tripRecordRefusal(stage, windowOf(booking), now);
  return {
    records,
    disputes,
    party,
    can_check_in: can('check_in'),
    can_check_out: can('check_out'),
    can_flag: party === 'host' && !disputeRefusal(windowOf(booking), now, records.some((r) => r.stage === 'check_in')),
    comparison: compareTripRecords(records),
  };
}

/** Check-in against check-out: the photos, kilometres driven and the fuel change (for Process Return). */
export async function tripComparison(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<TripComparison> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  await auditAdminReading(ctx, viewer, booking, 'comparison');
  return compareTripRecords(await listRecordsOf(ctx, booking.id));
}

/** A photo's bytes, for the booking's parties and admins; anyone else gets 404. */
export async function readPhoto(ctx: AppContext, viewer: UserRow, photoId: string): Promise<{ data: Buffer; mime: string }> {
  const photo = UUID.test(photoId) ? await repo.findPhoto(ctx.db, photoId) : undefined;
  if (!photo) throw notFound(PHOTO_NOT_FOUND);
  let booking: BookingRecord;
  try {
    booking = await findVisibleBooking(ctx, viewer, photo.booking_id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound(PHOTO_NOT_FOUND);
    throw error;
  }
  await auditAdminReading(ctx, viewer, booking, 'photo');
  const data = await ctx.privateFiles.read(photo.storage_key);
  if (!data) throw notFound(PHOTO_NOT_FOUND);
  return { data, mime: photo.mime_type };
}

/** The host flags damage or a missing item with photos and a description: a dispute both parties and admins see. */
export async function openDispute(ctx: AppContext, viewer: UserRow, bookingId: string, fields: { kind: DisputeKind; description: string }, photos: readonly UploadedPhoto[]): Promise<Dispute> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  if (partyOf(viewer, booking) !== 'host') throw forbidden('Only the host of this trip can flag damage or a missing item.');
  const checkedIn = (await repo.findRecords(ctx.db, booking.id)).some((r) => r.stage === 'check_in');
  const refusal = disputeRefusal(windowOf(booking), ctx.clock.now(), checkedIn);
  if (refusal) throw conflict(refusal);
  checkPhotoCount(photos, 1);
  const id = randomUUID();
  const stored: string[] = [];
  try {
    const rows = await storePhotos(ctx, booking.id, photos, { record_id: null, dispute_id: id }, ctx.clock.now(), stored);
    await inTransaction(ctx, async (tx) => {
      await repo.insertDispute(tx.db, { id, booking_id: booking.id, kind: fields.kind, description: fields.description, opened_by: viewer.id, created_at: tx.now, resolved_by: null, resolved_at: null, resolution_note: null });
      await repo.insertPhotos(tx.db, rows.map((row) => ({ ...row, created_at: tx.now })));
      tx.emit({ type: 'trip.dispute_opened', booking: refOf(booking), kind: fields.kind });
    }, { by: viewer });
    const [dispute] = await listDisputesOf(ctx, [(await repo.findDispute(ctx.db, id))!]);
    return dispute!;
  } catch (error) {
    await Promise.all(stored.map((key) => ctx.privateFiles.remove(key).catch(() => undefined)));
    throw error;
  }
}

/** Open disputes, oldest first (the admin's Bookings tab). */
export async function listOpenDisputes(ctx: AppContext): Promise<Dispute[]> {
  return listDisputesOf(ctx, await repo.findOpenDisputes(ctx.db));
}

/** An admin resolves an open dispute with a note, once; the audit log records it. */
export async function resolveDispute(ctx: AppContext, admin: UserRow, disputeId: string, note: string): Promise<Dispute> {
  const dispute = UUID.test(disputeId) ? await repo.findDispute(ctx.db, disputeId) : undefined;
  if (!dispute) throw notFound(DISPUTE_NOT_FOUND);
  const booking = await findVisibleBooking(ctx, admin, dispute.booking_id);
  await inTransaction(ctx, async (tx) => {
    const resolved = await repo.resolveDispute(tx.db, dispute.id, admin.id, note, tx.now);
    if (!resolved) throw conflict('This dispute has already been resolved.');
    tx.emit({ type: 'trip.dispute_resolved', dispute: { id: dispute.id, booking_number: dispute.booking_number, kind: dispute.kind }, booking: refOf(booking), note });
  }, { by: admin });
  const [answer] = await listDisputesOf(ctx, [(await repo.findDispute(ctx.db, dispute.id))!]);
  return answer!;
}
