// The playground's Cars tab (document 3): create a test car, then update its status, price or
// pickup location, return it or delete it, each through the real API.
import { CAR_TYPES, SETTABLE_CAR_STATUSES, todayIn } from '@karoo/shared';
import { Car, Wrench } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { apiClient } from '@/lib/api-client';
import { segment } from '../api/run-operation';
import { isBlank, OperationCard, SelectField, type FieldErrors, type OperationProps } from './operation-card';

/** Document 3 section 5, one field message per operation. */
export const CAR_MESSAGES = {
  status: 'Update Status needs a car username',
  price: 'Update Price needs a car username',
  delete: 'Delete Car needs a car username',
  location: 'Update Location needs a car username',
  locationValue: 'Update Location needs a location',
  returnCar: 'Return Car needs a car username',
} as const;

/** The test car's fixed details (the admin car creator's quick SUV: R450 a day, worth R750 000). */
function testCarPayload(form: NewCarForm) {
  return {
    car_make: form.make.trim(),
    car_model: form.model.trim(),
    car_year: Number(todayIn().slice(0, 4)),
    car_color: 'White',
    car_type: form.type,
    car_plate_number: form.plate.trim(),
    car_value: 750000,
    car_rent_price: Number(form.price) || 0,
    pickup_location: form.location.trim(),
    description: 'A test car created from the API playground.',
    specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4 },
    ...(isBlank(form.carUsername) ? {} : { car_username: form.carUsername.trim() }),
  };
}

interface NewCarForm {
  owner: string;
  carUsername: string;
  make: string;
  model: string;
  type: string;
  plate: string;
  price: string;
  location: string;
}

type ManageField = 'carUsername' | 'location';

export function CarsOperations({ run, busy, owner }: OperationProps & { owner: string }) {
  const [car, setCar] = useState<NewCarForm>({
    owner,
    carUsername: '',
    make: 'Toyota',
    model: 'Fortuner',
    type: 'SUV',
    plate: '',
    price: '450',
    location: 'Sandton, Johannesburg',
  });
  const [createErrors, setCreateErrors] = useState<Record<string, string>>({});
  const [target, setTarget] = useState('');
  const [status, setStatus] = useState<string>('available');
  const [price, setPrice] = useState('500');
  const [location, setLocation] = useState('');
  const [errors, setErrors] = useState<FieldErrors<ManageField>>({});
  const [confirmDelete, setConfirmDelete] = useState(false);

  const setCarField = (field: keyof NewCarForm) => (event: { target: { value: string } }) => {
    setCar((current) => ({ ...current, [field]: event.target.value }));
    setCreateErrors((current) => ({ ...current, [field]: '' }));
  };

  const createCar = async () => {
    if (isBlank(car.owner)) {
      setCreateErrors({ owner: 'Create Car needs an owner username' });
      return;
    }
    const result = await run('Create Car', () => apiClient.post(`/car/newCar/${segment(car.owner)}`, testCarPayload(car)), { writes: true });
    setCreateErrors(result.errors);
  };

  /** Checks the fields an operation needs; false (with the messages shown) when one is missing. */
  const need = (checks: [ManageField, boolean, string][]) => {
    const found: FieldErrors<ManageField> = {};
    for (const [field, missing, message] of checks) if (missing && !found[field]) found[field] = message;
    setErrors(found);
    return Object.keys(found).length === 0;
  };
  const id = () => segment(target);

  const updateStatus = () => {
    if (need([['carUsername', isBlank(target), CAR_MESSAGES.status]])) void run('Update Status', () => apiClient.put(`/car/updateCar/${id()}`, { status }), { writes: true });
  };
  const updatePrice = () => {
    if (need([['carUsername', isBlank(target), CAR_MESSAGES.price]])) {
      void run('Update Price', () => apiClient.post(`/rent/updateCarRentPrice/${id()}`, { car_rent_price: Number(price) }), { writes: true });
    }
  };
  const updateLocation = () => {
    const ok = need([
      ['carUsername', isBlank(target), CAR_MESSAGES.location],
      ['location', isBlank(location), CAR_MESSAGES.locationValue],
    ]);
    if (ok) void run('Update Location', () => apiClient.patch(`/car/updatePickupLocation/${id()}`, { pickup_location: location.trim() }), { writes: true });
  };
  const returnCar = () => {
    if (need([['carUsername', isBlank(target), CAR_MESSAGES.returnCar]])) void run('Return Car', () => apiClient.patch(`/car/returnCar/${id()}`, {}), { writes: true });
  };
  const askDelete = () => {
    if (need([['carUsername', isBlank(target), CAR_MESSAGES.delete]])) setConfirmDelete(true);
  };

  const isBusy = busy !== null;
  return (
    <div className="space-y-6">
      <OperationCard
        title="Create Car"
        description={<>POST /api/car/newCar/{'{username}'}: a test SUV (automatic, petrol, 5 seats) for the owner you name.</>}
        icon={<Car className="size-5" aria-hidden="true" />}
        onSubmit={() => void createCar()}
        actions={
          <Button type="submit" loading={busy === 'Create Car'} disabled={isBusy}>
            Create Car
          </Button>
        }
      >
        <Input label="Owner username" value={car.owner} onChange={setCarField('owner')} error={createErrors.owner} autoComplete="off" />
        <Input label="Car username (optional)" value={car.carUsername} onChange={setCarField('carUsername')} error={createErrors.car_username} hint="The server makes one when empty" autoComplete="off" />
        <Input label="Make" value={car.make} onChange={setCarField('make')} error={createErrors.car_make} />
        <Input label="Model" value={car.model} onChange={setCarField('model')} error={createErrors.car_model} />
        <SelectField label="Type" value={car.type} onChange={(type) => setCar((c) => ({ ...c, type }))} options={CAR_TYPES.map((t) => ({ value: t, label: t }))} />
        <Input label="Plate number" value={car.plate} onChange={setCarField('plate')} error={createErrors.car_plate_number} placeholder="CA 123-456" />
        <Input label="Daily price (R)" type="number" inputMode="decimal" value={car.price} onChange={setCarField('price')} error={createErrors.car_rent_price} />
        <Input label="Pickup location" value={car.location} onChange={setCarField('location')} error={createErrors.pickup_location} />
      </OperationCard>

      <OperationCard
        title="Manage a Car"
        description="Update the status, price or pickup location of a car, return it, or delete it."
        icon={<Wrench className="size-5" aria-hidden="true" />}
        actions={null}
      >
        <Input
          label="Car username"
          value={target}
          onChange={(event) => {
            setTarget(event.target.value);
            setErrors((current) => ({ ...current, carUsername: undefined }));
          }}
          error={errors.carUsername}
          placeholder="toyota-fortuner-123456"
          autoComplete="off"
          containerClassName="sm:col-span-2"
        />
        <div className="flex items-end gap-2">
          <SelectField
            label="Status"
            value={status}
            onChange={setStatus}
            options={SETTABLE_CAR_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
            className="flex-1"
          />
          <Button variant="secondary" onClick={updateStatus} loading={busy === 'Update Status'} disabled={isBusy}>
            Update Status
          </Button>
        </div>
        <div className="flex items-end gap-2">
          <Input label="New daily price (R)" type="number" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} containerClassName="flex-1" />
          <Button variant="secondary" onClick={updatePrice} loading={busy === 'Update Price'} disabled={isBusy}>
            Update Price
          </Button>
        </div>
        <div className="flex items-start gap-2 sm:col-span-2">
          <Input
            label="New pickup location"
            value={location}
            onChange={(event) => {
              setLocation(event.target.value);
              setErrors((current) => ({ ...current, location: undefined }));
            }}
            error={errors.location}
            placeholder="Rosebank, Johannesburg"
            containerClassName="flex-1"
          />
          <Button variant="secondary" onClick={updateLocation} loading={busy === 'Update Location'} disabled={isBusy} className="mt-7">
            Update Location
          </Button>
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <Button variant="secondary" onClick={returnCar} loading={busy === 'Return Car'} disabled={isBusy}>
            Return Car
          </Button>
          <Button variant="danger-outline" onClick={askDelete} loading={busy === 'Delete Car'} disabled={isBusy}>
            Delete Car
          </Button>
        </div>
      </OperationCard>

      <ConfirmDialog
        open={confirmDelete}
        tone="danger"
        title="Delete this car?"
        description={`The car ${target.trim()} is removed with its open bookings. This cannot be undone.`}
        confirmLabel="Delete Car"
        loadingLabel="Deleting…"
        onConfirm={() => run('Delete Car', () => apiClient.delete(`/car/deleteCar/${id()}`), { writes: true })}
        onClose={() => setConfirmDelete(false)}
      />
    </div>
  );
}
