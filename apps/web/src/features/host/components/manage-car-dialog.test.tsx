import type { Car, InsuranceOption, PickupOption } from '@karoo/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bodyOf, hostApi, makeCar } from '../test-fixtures';

const airport: PickupOption = {
  id: 'pickup_airport1',
  name: 'OR Tambo International Airport',
  address: 'O.R. Tambo Airport Rd, Kempton Park',
  additional_fee: 150,
  type: 'airport',
  available_times: ['07:00', '19:00'],
};
const basic: InsuranceOption = {
  id: 'insurance_basic1',
  name: 'Basic Cover',
  description: 'Third-party liability.',
  daily_rate: 0,
  excess_amount: 22500,
  coverage: ['Third-party liability', 'Roadside assistance'],
  included: true,
  popular: false,
  recommended: false,
};

async function openManage(car: Car, extra: Parameters<typeof hostApi>[1] = {}) {
  const fetchMock = hostApi([car], extra);
  const view = renderApp({ path: '/host-dashboard' });
  const card = within(await screen.findByTestId(`fleet-car-${car.car_username}`));
  await view.user.click(card.getByRole('button', { name: 'Manage Details' }));
  const dialog = within(await screen.findByRole('dialog'));
  return { fetchMock, dialog, ...view };
}

describe('Manage Details', () => {
  it('opens on the pickup locations tab, with insurance plans and documents beside it', async () => {
    const car = makeCar({ car_make: 'Toyota', car_model: 'Corolla', car_year: 2022, pickup_options: [airport] });
    const { dialog, user } = await openManage(car);

    expect(screen.getByRole('dialog', { name: 'Manage 2022 Toyota Corolla' })).toBeInTheDocument();
    expect(dialog.getByRole('tab', { name: 'Pickup Locations' })).toHaveAttribute('aria-selected', 'true');
    expect(dialog.getByText('OR Tambo International Airport')).toBeInTheDocument();
    expect(dialog.getByText('+R 150')).toBeInTheDocument();

    await user.click(dialog.getByRole('tab', { name: 'Insurance Plans' }));
    expect(dialog.getByRole('tab', { name: 'Insurance Plans' })).toHaveAttribute('aria-selected', 'true');
    await user.click(dialog.getByRole('tab', { name: 'Documents' }));
    expect(dialog.getByText('No Document')).toBeInTheDocument();
  });

  describe('pickup locations', () => {
    it('adds a location as type standard, fee 0 and the times 09:00, 13:00, 17:00, and refuses it without name and address', async () => {
      const car = makeCar();
      const { dialog, user, fetchMock } = await openManage(car);

      await user.click(dialog.getByRole('button', { name: 'Add Pickup Location' }));
      expect(dialog.getByLabelText('Location name')).toHaveValue('');
      expect(dialog.getByLabelText('Type')).toHaveValue('standard');
      expect(dialog.getByLabelText('Additional fee (R)')).toHaveValue(0);
      for (const time of ['09:00', '13:00', '17:00']) expect(dialog.getByRole('button', { name: `Remove ${time}` })).toBeInTheDocument();

      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));
      expect(await dialog.findByText('Pickup location name is required')).toBeInTheDocument();
      expect(dialog.getByText('Pickup address is required')).toBeInTheDocument();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('updatePickupOptions'))).toBe(false);
    });

    it('refuses a negative fee', async () => {
      const { dialog, user } = await openManage(makeCar());

      await user.click(dialog.getByRole('button', { name: 'Add Pickup Location' }));
      await user.type(dialog.getByLabelText('Location name'), 'Sandton City');
      await user.type(dialog.getByLabelText('Address'), '83 Rivonia Rd, Sandton');
      fireEvent.change(dialog.getByLabelText('Additional fee (R)'), { target: { value: '-20' } });
      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));

      expect(await dialog.findByText('Additional fee cannot be negative')).toBeInTheDocument();
    });

    it('saves the whole list and says so', async () => {
      const car = makeCar({ pickup_options: [airport] });
      const saved = { ...car, pickup_options: [airport, { ...airport, id: 'pickup_new', name: 'Sandton City', address: '83 Rivonia Rd', type: 'mall' as const, additional_fee: 50, available_times: ['09:00', '13:00', '17:00'] }] };
      const { dialog, user, fetchMock } = await openManage(car, { [`PATCH /api/car/updatePickupOptions/${car.id}`]: ok(saved, 'Pickup Options Updated') });

      await user.click(dialog.getByRole('button', { name: 'Add Pickup Location' }));
      await user.type(dialog.getByLabelText('Location name'), 'Sandton City');
      await user.type(dialog.getByLabelText('Address'), '83 Rivonia Rd');
      await user.selectOptions(dialog.getByLabelText('Type'), 'mall');
      await user.clear(dialog.getByLabelText('Additional fee (R)'));
      await user.type(dialog.getByLabelText('Additional fee (R)'), '50');
      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));

      expect(await screen.findByText('Pickup Options Updated')).toBeInTheDocument();
      const body = bodyOf(fetchMock, 'PATCH', '/updatePickupOptions/') as { pickup_options: unknown[] };
      expect(body.pickup_options).toEqual([
        airport,
        { name: 'Sandton City', address: '83 Rivonia Rd', additional_fee: 50, type: 'mall', available_times: ['09:00', '13:00', '17:00'] },
      ]);
      await waitFor(() => expect(dialog.queryByLabelText('Location name')).not.toBeInTheDocument());
      expect(dialog.getByText('Sandton City')).toBeInTheDocument();
    });

    it('edits and removes locations', async () => {
      const car = makeCar({ pickup_options: [airport, { ...airport, id: 'pickup_mall1', name: 'Mall of Africa', type: 'mall' }] });
      const { dialog, user, fetchMock } = await openManage(car, { [`PATCH /api/car/updatePickupOptions/${car.id}`]: ok(car) });

      await user.click(dialog.getByRole('button', { name: 'Remove Mall of Africa' }));
      await user.click(within(screen.getByRole('dialog', { name: 'Remove Mall of Africa?' })).getByRole('button', { name: 'Remove' }));
      await user.click(dialog.getByRole('button', { name: 'Edit OR Tambo International Airport' }));
      await user.clear(dialog.getByLabelText('Location name'));
      await user.type(dialog.getByLabelText('Location name'), 'King Shaka Airport');
      await user.click(dialog.getByRole('button', { name: 'Remove 07:00' }));
      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));

      await screen.findByText('Pickup Options Updated');
      const body = bodyOf(fetchMock, 'PATCH', '/updatePickupOptions/') as { pickup_options: PickupOption[] };
      expect(body.pickup_options).toEqual([{ ...airport, name: 'King Shaka Airport', available_times: ['19:00'] }]);
    });

    it('asks before removing a saved location: Cancel keeps it, a blank new row goes without asking', async () => {
      const car = makeCar({ pickup_options: [airport] });
      const { dialog, user } = await openManage(car);

      await user.click(dialog.getByRole('button', { name: 'Remove OR Tambo International Airport' }));
      const confirm = screen.getByRole('dialog', { name: 'Remove OR Tambo International Airport?' });
      expect(confirm).toHaveAccessibleDescription('Renters will no longer be able to choose it once you save.');
      await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog', { name: /^Remove/ })).not.toBeInTheDocument();
      expect(dialog.getByText('OR Tambo International Airport')).toBeInTheDocument();
      // Escape closes the confirmation only, not Manage Details under it.
      await user.click(dialog.getByRole('button', { name: 'Remove OR Tambo International Airport' }));
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog', { name: /^Remove/ })).not.toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: /^Manage/ })).toBeInTheDocument();

      await user.click(dialog.getByRole('button', { name: 'Add Pickup Location' }));
      await user.click(dialog.getByRole('button', { name: 'Remove New pickup location' }));
      expect(screen.queryByRole('dialog', { name: /^Remove/ })).not.toBeInTheDocument();
      expect(dialog.queryByLabelText('Location name')).not.toBeInTheDocument();
    });

    it('reports a failed save with the document\u2019s text when the server gives no reason', async () => {
      const car = makeCar({ pickup_options: [airport] });
      const { dialog, user } = await openManage(car, { [`PATCH /api/car/updatePickupOptions/${car.id}`]: fail(500, 'Boom') });

      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));

      expect(await screen.findByText('Update Failed')).toBeInTheDocument();
      expect(screen.getByText('Failed to update pickup options. Please try again.')).toBeInTheDocument();
    });

    it.each([
      [409, 'This car was changed by someone else. Reload and try again.'],
      [503, 'Karoo is under maintenance. Please try again later.'],
      [429, 'Too many changes. Try again at 14:05.'],
    ])('shows the server\u2019s own reason for a %i', async (status, message) => {
      const car = makeCar({ pickup_options: [airport] });
      const { dialog, user } = await openManage(car, { [`PATCH /api/car/updatePickupOptions/${car.id}`]: fail(status, message) });

      await user.click(dialog.getByRole('button', { name: 'Save Pickup Options' }));

      expect(await screen.findByText('Update Failed')).toBeInTheDocument();
      expect(screen.getByText(message)).toBeInTheDocument();
      expect(screen.queryByText('Failed to update pickup options. Please try again.')).not.toBeInTheDocument();
    });
  });

  describe('insurance plans', () => {
    it('needs a name and a description, and refuses a negative daily rate', async () => {
      const { dialog, user, fetchMock } = await openManage(makeCar());
      await user.click(dialog.getByRole('tab', { name: 'Insurance Plans' }));

      await user.click(dialog.getByRole('button', { name: 'Add Insurance Plan' }));
      expect(dialog.getByLabelText('Daily rate (R)')).toHaveValue(0);
      expect(dialog.getByLabelText('Excess amount (R)')).toHaveValue(0);
      fireEvent.change(dialog.getByLabelText('Daily rate (R)'), { target: { value: '-1' } });
      await user.click(dialog.getByRole('button', { name: 'Save Insurance Plans' }));

      expect(await dialog.findByText('Insurance plan name is required')).toBeInTheDocument();
      expect(dialog.getByText('Insurance plan description is required')).toBeInTheDocument();
      expect(dialog.getByText('Daily rate cannot be negative')).toBeInTheDocument();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('updateInsuranceOptions'))).toBe(false);
    });

    it('sends comma-separated coverage as a list, rates defaulting to 0, and the flags', async () => {
      const car = makeCar({ insurance_options: [basic] });
      const { dialog, user, fetchMock } = await openManage(car, { [`PATCH /api/car/updateInsuranceOptions/${car.id}`]: ok(car, 'Insurance Options Updated') });
      await user.click(dialog.getByRole('tab', { name: 'Insurance Plans' }));

      await user.click(dialog.getByRole('button', { name: 'Add Insurance Plan' }));
      await user.type(dialog.getByLabelText('Plan name'), 'Premium Cover');
      await user.type(dialog.getByLabelText('Description'), 'Zero excess.');
      await user.clear(dialog.getByLabelText('Excess amount (R)'));
      await user.type(dialog.getByLabelText('Coverage'), 'Collision damage, Theft , ,Windscreen');
      await user.click(dialog.getByLabelText('Recommended'));
      await user.click(dialog.getByRole('button', { name: 'Save Insurance Plans' }));

      expect(await screen.findByText('Insurance Options Updated')).toBeInTheDocument();
      const body = bodyOf(fetchMock, 'PATCH', '/updateInsuranceOptions/') as { insurance_options: unknown[] };
      expect(body.insurance_options).toEqual([
        basic,
        {
          name: 'Premium Cover',
          description: 'Zero excess.',
          daily_rate: 0,
          excess_amount: 0,
          coverage: ['Collision damage', 'Theft', 'Windscreen'],
          included: false,
          popular: false,
          recommended: true,
        },
      ]);
    });

    it('reports a failed save', async () => {
      const car = makeCar({ insurance_options: [basic] });
      const { dialog, user } = await openManage(car, { [`PATCH /api/car/updateInsuranceOptions/${car.id}`]: fail(500, 'Boom') });
      await user.click(dialog.getByRole('tab', { name: 'Insurance Plans' }));

      await user.click(dialog.getByRole('button', { name: 'Save Insurance Plans' }));

      expect(await screen.findByText('Update Failed')).toBeInTheDocument();
      expect(screen.getByText('Failed to update insurance options. Please try again.')).toBeInTheDocument();
    });

    it('shows the server\u2019s reason (a 503 in maintenance) and asks before removing a plan', async () => {
      const car = makeCar({ insurance_options: [basic] });
      const { dialog, user, fetchMock } = await openManage(car, {
        [`PATCH /api/car/updateInsuranceOptions/${car.id}`]: fail(503, 'Karoo is under maintenance. Please try again later.'),
      });
      await user.click(dialog.getByRole('tab', { name: 'Insurance Plans' }));

      await user.click(dialog.getByRole('button', { name: 'Remove Basic Cover' }));
      await user.click(within(screen.getByRole('dialog', { name: 'Remove Basic Cover?' })).getByRole('button', { name: 'Remove' }));
      expect(dialog.getByText('No insurance plans yet')).toBeInTheDocument();
      await user.click(dialog.getByRole('button', { name: 'Save Insurance Plans' }));

      expect(await screen.findByText('Update Failed')).toBeInTheDocument();
      expect(screen.getByText('Karoo is under maintenance. Please try again later.')).toBeInTheDocument();
      expect((bodyOf(fetchMock, 'PATCH', '/updateInsuranceOptions/') as { insurance_options: unknown[] }).insurance_options).toEqual([]);
    });
  });

  describe('registration document', () => {
    const pdf = (name = 'registration.pdf', size = 2048) => {
      const file = new File(['%PDF-1.4'], name, { type: 'application/pdf' });
      Object.defineProperty(file, 'size', { value: size });
      return file;
    };

    it('refuses, by name and at once, files that are not PDF, JPEG or PNG by content, or larger than 10MB', async () => {
      const car = makeCar();
      const { dialog, user, fetchMock } = await openManage(car);
      await user.click(dialog.getByRole('tab', { name: 'Documents' }));
      const input = dialog.getByTestId('upload-registration-document');

      fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
      expect(await dialog.findByRole('alert')).toHaveTextContent('"notes.txt" is not a PDF, JPEG or PNG file.');
      // A text file named like a picture is judged by its content, not its name.
      fireEvent.change(input, { target: { files: [new File(['just text'], 'natis.jpg', { type: 'image/jpeg' })] } });
      expect(await dialog.findByText('"natis.jpg" is not a PDF, JPEG or PNG file.')).toBeInTheDocument();

      fireEvent.change(input, { target: { files: [pdf('big.pdf', 10 * 1024 * 1024 + 1)] } });
      expect(await dialog.findByText('"big.pdf" is larger than 10MB.')).toBeInTheDocument();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('uploadRegistrationDocument'))).toBe(false);
    });

    it('uploads the document as registrationDocument and shows it pending verification', async () => {
      const car = makeCar({ car_username: 'toyota-corolla-555555' });
      const uploaded: Car = {
        ...car,
        updated_at: '2025-02-01T00:00:00.000Z',
        registration_document: {
          url: '/api/car/toyota-corolla-555555/registration-document',
          filename: 'registration.pdf',
          mime_type: 'application/pdf',
          uploaded_at: '2025-02-01T00:00:00.000Z',
          verified: null,
          verification_notes: null,
        },
      };
      const { dialog, user, fetchMock } = await openManage(car, { 'POST /api/car/uploadRegistrationDocument/toyota-corolla-555555': ok(uploaded, 'Document Uploaded') });
      await user.click(dialog.getByRole('tab', { name: 'Documents' }));

      fireEvent.change(dialog.getByTestId('upload-registration-document'), { target: { files: [pdf()] } });

      expect(await screen.findByText('Document Uploaded')).toBeInTheDocument();
      expect(await dialog.findByText('Pending Verification')).toBeInTheDocument();
      expect(dialog.getByRole('button', { name: 'View' })).toBeInTheDocument();
      expect(dialog.queryByTestId('upload-registration-document')).not.toBeInTheDocument();
      const call = fetchMock.mock.calls.find(([url]) => String(url).includes('uploadRegistrationDocument'));
      expect([...(call?.[1]?.body as FormData).keys()]).toEqual(['registrationDocument']);
    });

    it("shows the server's reason when an upload is refused", async () => {
      const car = makeCar({ car_username: 'toyota-corolla-666666' });
      const { dialog, user } = await openManage(car, {
        'POST /api/car/uploadRegistrationDocument/toyota-corolla-666666': fail(415, 'Only PDF, JPEG and PNG files are accepted.'),
      });
      await user.click(dialog.getByRole('tab', { name: 'Documents' }));

      fireEvent.change(dialog.getByTestId('upload-registration-document'), { target: { files: [pdf()] } });

      expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
      expect(screen.getByText('Only PDF, JPEG and PNG files are accepted.')).toBeInTheDocument();
    });

    it('lets the owner upload again after a rejection, and shows why it was rejected', async () => {
      const car = makeCar({
        registration_document: {
          url: '/api/car/x/registration-document',
          filename: 'old.jpg',
          mime_type: 'image/jpeg',
          uploaded_at: '2025-01-05T00:00:00.000Z',
          verified: false,
          verification_notes: 'The document has expired.',
        },
      });
      const { dialog, user } = await openManage(car);
      await user.click(dialog.getByRole('tab', { name: 'Documents' }));

      expect(dialog.getByText('Rejected')).toBeInTheDocument();
      expect(dialog.getByText('The document has expired.')).toBeInTheDocument();
      expect(dialog.getByText('Upload a new document')).toBeInTheDocument();
    });

    it('offers no upload once the document is verified', async () => {
      const car = makeCar({
        registration_document: {
          url: '/api/car/x/registration-document',
          filename: 'reg.pdf',
          mime_type: 'application/pdf',
          uploaded_at: '2025-01-05T00:00:00.000Z',
          verified: true,
          verification_notes: null,
        },
      });
      const { dialog, user } = await openManage(car);
      await user.click(dialog.getByRole('tab', { name: 'Documents' }));

      expect(dialog.getByText('Verified')).toBeInTheDocument();
      expect(dialog.queryByTestId('upload-registration-document')).not.toBeInTheDocument();
    });
  });
});
