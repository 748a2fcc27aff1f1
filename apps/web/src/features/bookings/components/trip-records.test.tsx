// Check-in and check-out from the booking card (issue 21): the four labelled photo slots that open
// the camera (capture="environment"), the form's checks before anything is sent, the multipart body
// the server reads, the host's return dialog with check-in beside check-out, and Flag damage.
import type { BookingTripRecords, TripComparison, TripRecord } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { tripFormProblems } from './trip-record-dialog';

const renter = makeUser({ id: 'user-1', username: 'sipho', full_name: 'Sipho Nkosi' });
const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Host', role: 'host', user_type: 'host' });
const trip = makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', start_date: '2020-01-01', end_date: '2020-01-03' });

const noComparison = { check_in: null, check_out: null, km_driven: null, fuel_change_eighths: null };
const noRecords: BookingTripRecords = { records: [], disputes: [], party: 'renter', can_check_in: true, can_check_out: false, can_flag: false, comparison: noComparison };

function record(stage: 'check_in' | 'check_out', odometer: number, fuel: number): TripRecord {
  return {
    id: `${stage}-1`,
    booking_id: 'b1',
    stage,
    party: 'host',
    author: { id: 'host-1', username: 'host_thabo' },
    odometer_km: odometer,
    fuel_eighths: fuel,
    note: '',
    created_at: '2020-01-01T07:00:00.000Z',
    photos: ['front', 'back', 'left', 'right'].map((slot) => ({ id: `${stage}-${slot}`, slot: slot as 'front', url: `/api/trip-photos/${stage}-${slot}` })),
  };
}

const jpeg = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type: 'image/jpeg' });

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() }));
});

describe('tripFormProblems', () => {
  it('names each missing side, the odometer and the fuel level', () => {
    expect(tripFormProblems({ sides: { front: jpeg('f.jpg') }, odometer: '', fuel: '' })).toEqual({
      photo_back: 'Add a photo of the back',
      photo_left: 'Add a photo of the left side',
      photo_right: 'Add a photo of the right side',
      odometer_km: 'Enter the odometer in whole kilometres',
      fuel_eighths: 'Choose the fuel or charge level',
    });
    const all = { front: jpeg('1'), back: jpeg('2'), left: jpeg('3'), right: jpeg('4') };
    expect(tripFormProblems({ sides: all, odometer: '42000', fuel: '8' })).toEqual({});
  });
});

describe('Check in from the booking card', () => {
  it('takes four photos from the camera, the odometer and the fuel, and sends them as multipart', async () => {
    signIn(renter);
    let sent: FormData | undefined;
    mockFetch({
      'GET /api/booking/getAll': ok([trip]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'GET /api/booking/b1/trip-records': ok(noRecords),
      'POST /api/booking/b1/trip-records': ({ init }) => {
        sent = init?.body as FormData;
        return ok(record('check_in', 42_000, 6), 'Check-in recorded');
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    await user.click(await within(card).findByRole('button', { name: 'Check in' }));
    const dialog = await screen.findByRole('dialog', { name: /Check in: Volkswagen Polo/ });

    // Nothing is sent before the four sides, the odometer and the fuel are there.
    await user.click(within(dialog).getByRole('button', { name: 'Save check in' }));
    expect(within(dialog).getByText('Add a photo of the left side')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    for (const side of ['Front', 'Back', 'Left side', 'Right side']) {
      const input = within(dialog).getByLabelText(`${side} photo`);
      expect(input).toHaveAttribute('capture', 'environment');
      expect(input).toHaveAttribute('accept', 'image/*');
      await user.upload(input, jpeg(`${side}.jpg`));
    }
    await user.type(within(dialog).getByLabelText('Odometer (km)'), '42000');
    await user.selectOptions(within(dialog).getByLabelText('Fuel or charge level'), '6/8');
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Small chip on the windscreen');
    await user.click(within(dialog).getByRole('button', { name: 'Save check in' }));

    await waitFor(() => expect(sent).toBeDefined());
    expect(sent!.get('stage')).toBe('check_in');
    expect(sent!.get('odometer_km')).toBe('42000');
    expect(sent!.get('fuel_eighths')).toBe('6');
    expect(sent!.get('note')).toBe('Small chip on the windscreen');
    expect((sent!.get('photo_front') as File).name).toBe('Front.jpg');
    expect((sent!.get('photo_right') as File).name).toBe('Right side.jpg');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Check in/ })).not.toBeInTheDocument());
  });
});

describe("The host's return", () => {
  it('shows check-in beside check-out with kilometres driven and the fuel change, and offers Flag damage', async () => {
    signIn(host);
    const comparison: TripComparison = { check_in: record('check_in', 42_000, 8), check_out: record('check_out', 42_350, 5), km_driven: 350, fuel_change_eighths: -3 };
    mockFetch({
      'GET /api/booking/getAll': ok([{ ...trip, car_owner: 'host_thabo' }]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'GET /api/booking/b1/trip-records': ok({ ...noRecords, party: 'host', can_check_in: false, can_flag: true, records: [comparison.check_in, comparison.check_out], comparison }),
      'GET /api/booking/b1/trip-comparison': ok(comparison),
      ...Object.fromEntries(['check_in', 'check_out'].flatMap((stage) => ['front', 'back', 'left', 'right'].map((slot) => [`GET /api/trip-photos/${stage}-${slot}`, new Response(new Blob(['x'], { type: 'image/jpeg' }))]))),
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    await user.click(await within(card).findByRole('button', { name: 'Mark as Returned' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as Returned' });
    const section = await within(dialog).findByRole('region', { name: 'Check-in and check-out' });
    expect(within(section).getByText('Kilometres driven').nextElementSibling).toHaveTextContent('350 km');
    expect(within(section).getByText('Fuel change').nextElementSibling).toHaveTextContent('−3/8');
    expect(within(section).getByText(/^42\s?000 km · fuel Full/)).toBeInTheDocument();
    expect(within(section).getByText(/^42\s?350 km · fuel 5\/8/)).toBeInTheDocument();
    expect(await within(section).findAllByRole('img', { name: 'Front of the car' })).toHaveLength(2);

    await user.click(within(dialog).getByRole('button', { name: 'Flag damage' }));
    expect(await screen.findByRole('dialog', { name: 'Flag damage' })).toBeInTheDocument();
  });
});

describe('The comparison on the booking card', () => {
  const checkIn = record('check_in', 42_000, 8);
  const checkOut = { ...record('check_out', 42_350, 5), party: 'renter' as const, author: { id: 'user-1', username: 'sipho' } };
  const comparison: TripComparison = { check_in: checkIn, check_out: checkOut, km_driven: 350, fuel_change_eighths: -3 };

  for (const [side, viewer, party, ownerName] of [
    ['renter', renter, 'renter', 'host_thabo'],
    ['host', host, 'host', 'host_thabo'],
  ] as const) {
    it(`shows the ${side} the kilometres driven and the fuel change once both records exist`, async () => {
      signIn(viewer);
      mockFetch({
        'GET /api/booking/getAll': ok([{ ...trip, car_owner: ownerName }]),
        'GET /api/review/getAll': ok([]),
        'GET /api/notifications': ok([]),
        'GET /api/booking/b1/trip-records': ok({ ...noRecords, party, can_check_in: false, records: [checkIn, checkOut], comparison }),
      });
      renderApp({ path: '/my-bookings' });
      const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
      const summary = await within(card).findByRole('group', { name: 'Check-in against check-out' });
      expect(within(summary).getByText('Kilometres driven').nextElementSibling).toHaveTextContent('350 km');
      expect(within(summary).getByText('Fuel change').nextElementSibling).toHaveTextContent('−3/8');
    });
  }

  it('is not shown while only the check-in exists, and Flag damage is not offered before the trip starts', async () => {
    signIn(host);
    mockFetch({
      'GET /api/booking/getAll': ok([{ ...trip, car_owner: 'host_thabo' }]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'GET /api/booking/b1/trip-records': ok({ ...noRecords, party: 'host', can_check_in: true, can_flag: false, records: [], comparison: noComparison }),
    });
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(await within(card).findByRole('button', { name: 'Check in' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Flag damage' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('group', { name: 'Check-in against check-out' })).not.toBeInTheDocument();
  });
});
