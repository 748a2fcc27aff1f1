import type { Car, User } from '@karoo/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { WIZARD_STORAGE_KEY } from '../hooks/use-wizard-state';
import { shouldBlockEnter } from './become-host-page';

type Api = Parameters<typeof mockFetch>[0];
const noDocuments = { id_document: null, driver_license: null, proof_of_address: null, bank_confirmation_letter: null };

function createdCar(body: Record<string, unknown>): Car {
  return {
    ...(body as unknown as Car),
    id: '00000000-0000-4000-8000-00000000c0de',
    car_username: String(body.car_username),
    car_owner: 'sipho',
    images: ['/uploads/cars/c0de/photo-1.png'],
    car_images: ['/uploads/cars/c0de/photo-1.png'],
    status: 'available',
    isRented: false,
    rating: null,
    totalReviews: 0,
    verification_status: 'pending_verification',
    registration_document: null,
    updated_at: '2026-03-01T10:00:00.000Z',
  };
}

function setup({ user = makeUser() as User | null, api = {} as Api } = {}) {
  if (user) signIn(user);
  const fetchMock = mockFetch({
    'GET /api/user/me': ok(makeUser({ role: 'host', user_type: 'host', host_since: '2026-03-01T10:00:00.000Z' })),
    'GET /api/notifications': ok([]),
    'GET /api/settings': ok({ minCarValue: 50000 }),
    'GET /api/user/sipho/verification-status': ok({ verification_status: 'verified', documents: noDocuments, missing: [] }),
    'POST /api/car/newCar/sipho': ({ init }) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      return new Response(JSON.stringify({ success: true, message: 'Vehicle added successfully. It will be listed once an administrator verifies it.', data: createdCar(body) }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    },
    ...api,
  });
  return { fetchMock, ...renderApp({ path: '/become-host' }) };
}

/** A PNG file: a real 1 x 1 picture, or a header declaring another size (all a size check reads). */
function png(name: string, width = 1, height = 1): File {
  const bytes = Uint8Array.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d49444154089963f8ffff7f0300097c037e6cec10c90000000049454e44ae426082'
      .match(/../g)!
      .map((h) => parseInt(h, 16)),
  );
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  return new File([bytes], name, { type: 'image/png' });
}

const field = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const textbox = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;

async function fillStep1(user: ReturnType<typeof setup>['user']) {
  await screen.findByRole('heading', { name: 'Vehicle Details' });
  await user.selectOptions(field('Make'), 'Toyota');
  await user.selectOptions(field('Model'), 'Corolla Cross');
  await user.selectOptions(field('Colour'), 'White');
  await user.type(textbox('Plate number'), 'GP 12 AB CD');
  await user.type(textbox('Vehicle value (R)'), '350000');
  await user.type(textbox('Daily price (R)'), '650');
  await user.selectOptions(field('Pickup location'), 'Durban');
}

describe('BecomeHostPage (list-a-car wizard)', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('shows the three steps and starts on Vehicle Details with the default car', async () => {
    setup();

    expect(await screen.findByRole('heading', { name: 'Vehicle Details' })).toBeInTheDocument();
    const progress = within(screen.getByRole('navigation', { name: 'Listing progress' }));
    expect(progress.getByText('Vehicle Details').closest('li')).toHaveAttribute('aria-current', 'step');
    expect(progress.getByText('Features & Submit')).toBeInTheDocument();
    expect(progress.getByText('Documents')).toBeInTheDocument();
    expect(field('Year')).toHaveValue(String(new Date().getFullYear()));
    expect(field('Vehicle type')).toHaveValue('Sedan');
    expect(field('Transmission')).toHaveValue('Automatic');
    expect(field('Fuel type')).toHaveValue('Petrol');
    expect(field('Seats')).toHaveValue('5');
    expect(field('Doors')).toHaveValue('4');
    expect(field('Make').options).toHaveLength(56);
    expect(field('Vehicle type').options).toHaveLength(17);
    expect(field('Colour').options).toHaveLength(22);
    expect(field('Pickup location').options).toHaveLength(16);
    expect([...field('Seats').options].map((o) => o.value)).toEqual(['2', '3', '4', '5', '6', '7', '8']);
    expect([...field('Doors').options].map((o) => o.value)).toEqual(['2', '3', '4', '5']);
    expect([...field('Transmission').options].map((o) => o.value)).toEqual(['Automatic', 'Manual', 'CVT']);
  });

  it('warns when Continue is pressed with required fields missing, and marks them', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Vehicle Details' });

    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Required Fields Missing')).toBeInTheDocument();
    expect(screen.getByText('Please fill in all required fields before continuing.')).toBeInTheDocument();
    expect(field('Make')).toHaveAttribute('aria-invalid', 'true');
    expect(textbox('Plate number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('heading', { name: 'Vehicle Details' })).toBeInTheDocument();
  });

  it('clears the model when the make changes, and takes a typed model for Bike and Trailer', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Vehicle Details' });
    expect(field('Model')).toBeDisabled();

    await user.selectOptions(field('Make'), 'Toyota');
    await user.selectOptions(field('Model'), 'Hilux');
    expect(field('Model')).toHaveValue('Hilux');

    await user.selectOptions(field('Make'), 'Volkswagen');
    expect(field('Model')).toHaveValue('');
    expect([...field('Model').options].map((o) => o.value)).toContain('Polo Vivo');

    await user.selectOptions(field('Make'), 'Trailer');
    await user.type(textbox('Model'), 'Venter 5-seater');
    expect(textbox('Model')).toHaveValue('Venter 5-seater');
  });

  it('strips leading zeros from numeric fields and reads an empty one as 0', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Vehicle Details' });
    const price = textbox('Daily price (R)');
    expect(price).toHaveValue('0');

    await user.type(price, '0650');
    expect(price).toHaveValue('650');
    await user.clear(price);
    expect(price).toHaveValue('0');
    await user.type(textbox('Odometer (km)'), '00012x3');
    expect(textbox('Odometer (km)')).toHaveValue('123');
  });

  it('blocks the Enter key on step 1 but not on step 2', async () => {
    const { user } = setup();
    await screen.findByRole('heading', { name: 'Vehicle Details' });
    expect(fireEvent.keyDown(textbox('Plate number'), { key: 'Enter' })).toBe(false);
    expect(fireEvent.keyDown(textbox('Plate number'), { key: 'a' })).toBe(true);

    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Features & Submit' });
    expect(fireEvent.keyDown(screen.getByRole('checkbox', { name: 'Bluetooth' }), { key: 'Enter' })).toBe(true);

    const input = document.createElement('input');
    expect(shouldBlockEnter(1, input)).toBe(true);
    expect(shouldBlockEnter(3, input)).toBe(true);
    expect(shouldBlockEnter(2, input)).toBe(false);
    expect(shouldBlockEnter(1, document.createElement('button'))).toBe(false);
    expect(shouldBlockEnter(1, document.createElement('textarea'))).toBe(false);
  });

  it('refuses a car worth less than the minimum car value', async () => {
    const { user } = setup();
    await fillStep1(user);
    await user.clear(textbox('Vehicle value (R)'));
    await user.type(textbox('Vehicle value (R)'), '20000');

    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Vehicle Value Too Low')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Vehicle Details' })).toBeInTheDocument();
  });

  describe('photos', () => {
    // happy-dom cannot decode pictures (its createImageBitmap takes no files): here every file that
    // passes the content and size checks decodes. Real decoding is proven in Chromium (e2e).
    beforeEach(() => {
      vi.stubGlobal('createImageBitmap', () => Promise.resolve({ close: () => undefined }));
    });
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('adds photos, marks the first as the main photo, and refuses files that are not images', async () => {
      const { user } = setup();
      await screen.findByRole('heading', { name: 'Vehicle Details' });
      const input = screen.getByLabelText(/Add photos/);

      await user.upload(input, [png('front.png'), png('side.png')]);
      expect(await screen.findByRole('img', { name: 'Photo 1: front.png' })).toBeInTheDocument();
      expect(screen.getByText('Main photo')).toBeInTheDocument();
      expect(screen.getByText('2 of 10')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Make main photo 2' }));
      expect(screen.getByRole('img', { name: 'Photo 1: side.png' })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Remove photo 2' }));
      expect(screen.getByText('1 of 10')).toBeInTheDocument();

      fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], 'doc.pdf', { type: 'application/pdf' })] } });
      expect(await screen.findByText('"doc.pdf" is a PDF file: only JPEG, PNG or WebP images are allowed.')).toBeInTheDocument();
      expect(screen.getByText('1 of 10')).toBeInTheDocument();
    });

    it('refuses a text file named fake.jpg the moment it is chosen, naming it, and keeps the real photos', async () => {
      const { user, fetchMock } = setup();
      await screen.findByRole('heading', { name: 'Vehicle Details' });
      const input = screen.getByLabelText(/Add photos/);
      const fake = new File(['Just some notes, saved with the wrong name.'], 'fake.jpg', { type: 'image/jpeg' });

      await user.upload(input, [fake, png('front.png')]);

      const refusal = (await screen.findByText('"fake.jpg" is not a JPEG, PNG or WebP image.')).closest('[role="alert"]');
      expect(refusal).toHaveTextContent(/^Photo not added/);
      expect(await screen.findByRole('img', { name: 'Photo 1: front.png' })).toBeInTheDocument();
      expect(screen.queryByRole('img', { name: /fake\.jpg/ })).not.toBeInTheDocument();
      expect(screen.getByText('1 of 10')).toBeInTheDocument();
      // Nothing was sent: the refusal came from the page, before "Add Vehicle".
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/car/newCar'))).toBe(false);
      // The photo that was added carries its name to the server, which names it in any refusal.
      expect(screen.getByRole('img', { name: 'Photo 1: front.png' }).getAttribute('src')).toMatch(/^data:image\/png;name=front\.png;base64,/);

      // A picture declaring 30 000 x 30 000 pixels is refused from its header, without decoding it.
      await user.upload(input, [png('bomb.png', 30_000, 30_000)]);
      expect(await screen.findByText(/^"bomb\.png" is 30 000 × 30 000 pixels \(900 megapixels\): pictures can be at most 50 megapixels/)).toBeInTheDocument();
    });
  });

  it('adds rules (ignoring blank ones), needs a description, and lists the car after the confirmation', async () => {
    const { user, fetchMock } = setup();
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Features & Submit' });

    expect(screen.getAllByRole('checkbox')).toHaveLength(26);
    await user.click(screen.getByRole('checkbox', { name: 'Bluetooth' }));
    await user.click(screen.getByRole('checkbox', { name: 'Airbags' }));
    await user.type(textbox('Add a rule'), '   ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('list', { name: 'House rules' })).not.toBeInTheDocument();
    await user.type(textbox('Add a rule'), 'No smoking{Enter}');
    expect(within(screen.getByRole('list', { name: 'House rules' })).getByText('No smoking')).toBeInTheDocument();

    const submit = screen.getByRole('button', { name: 'Submit Listing' });
    expect(submit).toBeDisabled();
    await user.type(textbox('Description'), 'Spotless hybrid, great on fuel.');
    expect(submit).toBeEnabled();
    await user.click(submit);

    const dialog = within(await screen.findByRole('dialog', { name: 'Add Vehicle to Listing' }));
    expect(dialog.getByText(`${new Date().getFullYear()} Toyota Corolla Cross`)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Add Vehicle' }));

    expect(await screen.findByText('Vehicle Added Successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Documents', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Pending verification')).toBeInTheDocument();
    expect(screen.getByText('Registration Document')).toBeInTheDocument();
    expect(screen.getByText('Verification Documents')).toBeInTheDocument();

    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/car/newCar/sipho'));
    const body = JSON.parse(String(call?.[1]?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      car_make: 'Toyota',
      car_model: 'Corolla Cross',
      car_type: 'Sedan',
      car_color: 'White',
      car_plate_number: 'GP 12 AB CD',
      car_value: 350000,
      car_rent_price: 650,
      pickup_location: 'Durban',
      features: ['Bluetooth'],
      safety: ['Airbags'],
      rules: ['No smoking'],
      description: 'Spotless hybrid, great on fuel.',
    });
    expect(String(body.car_username)).toMatch(/^toyota-corolla-cross-\d{6}$/);
    // The server made the user a host; the session is refreshed from /api/user/me.
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/user/me'))).toBe(true);
    await waitFor(() => expect(screen.getByRole('link', { name: 'Host Dashboard' })).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(window.sessionStorage.getItem(WIZARD_STORAGE_KEY)).toBeNull();
  });

  it('shows the server refusal and the inline failure when the car cannot be added', async () => {
    const { user } = setup({ api: { 'POST /api/car/newCar/sipho': fail(400, 'Vehicle value must be at least R 50 000 to list on Karoo.', { car_value: 'Too low' }) } });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByRole('textbox', { name: 'Description' }), 'Nice car.');
    await user.click(screen.getByRole('button', { name: 'Submit Listing' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add Vehicle' }));

    expect(await screen.findByText('Error Adding Vehicle')).toBeInTheDocument();
    expect(screen.getByText('Failed to add vehicle. Please check all required fields and try again.')).toBeInTheDocument();
    expect(screen.getAllByText('Vehicle value must be at least R 50 000 to list on Karoo.').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Features & Submit' })).toBeInTheDocument();
  });

  it('uses the generic failure message when the server cannot be reached', async () => {
    const { user } = setup({ api: { 'POST /api/car/newCar/sipho': fail(500, 'Internal error') } });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByRole('textbox', { name: 'Description' }), 'Nice car.');
    await user.click(screen.getByRole('button', { name: 'Submit Listing' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add Vehicle' }));

    expect(await screen.findByText('Failed to add vehicle and upgrade to host. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Failed to add vehicle. Please check all required fields and try again.')).toBeInTheDocument();
  });

  it('sends a visitor to sign in on submit and keeps what they entered', async () => {
    const { user, router, fetchMock } = setup({ user: null });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByRole('textbox', { name: 'Description' }), 'Nice car.');
    await user.click(screen.getByRole('button', { name: 'Submit Listing' }));

    expect(await screen.findByText('Authentication Required')).toBeInTheDocument();
    expect(screen.getByText('Please sign in to add a vehicle to your listing.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('newCar'))).toBe(false);

    const saved = JSON.parse(window.sessionStorage.getItem(WIZARD_STORAGE_KEY) ?? '{}') as { step: number; draft: Record<string, unknown> };
    expect(saved.step).toBe(2);
    expect(saved.draft).toMatchObject({ car_make: 'Toyota', car_model: 'Corolla Cross', description: 'Nice car.', car_rent_price: 650 });
  });

  it('restores a kept draft when the wizard opens again', async () => {
    window.sessionStorage.setItem(
      WIZARD_STORAGE_KEY,
      JSON.stringify({ version: 1, step: 2, createdCar: null, draft: { car_make: 'Kia', car_model: 'Rio', description: 'Kept.', car_rent_price: 400 } }),
    );
    const { user } = setup();

    expect(await screen.findByRole('heading', { name: 'Features & Submit' })).toBeInTheDocument();
    expect(screen.getByText('We kept your listing details')).toBeInTheDocument();
    expect(textbox('Description')).toHaveValue('Kept.');

    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(await screen.findByRole('heading', { name: 'Vehicle Details' })).toBeInTheDocument();
    expect(field('Make')).toHaveValue('');
  });
});
