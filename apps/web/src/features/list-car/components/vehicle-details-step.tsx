// Wizard step 1, Vehicle Details: make and model (the brand's list, free text for Bike and
// Trailer), year, type, colour, plate, value, odometer, daily price, specifications, pickup
// location (14 cities or Other) and photos.
import {
  CAR_BRANDS,
  CAR_COLOURS,
  CAR_TYPES,
  CAR_YEAR_MIN,
  DOORS_MAX,
  DOORS_MIN,
  FUEL_TYPES,
  isFreeTextModelMake,
  modelsOfMake,
  OTHER_CITY,
  PICKUP_CITY_CHOICES,
  SEATS_MAX,
  SEATS_MIN,
  WIZARD_TRANSMISSIONS,
} from '@karoo/shared';
import type { ReactNode } from 'react';
import { formatRand } from '@/lib/format';
import { withMake, type Step1Field, type WizardDraft } from '../utils/wizard-draft';
import { NumericField, SelectField, TextField } from './fields';
import { PhotoPicker } from './photo-picker';

export interface VehicleDetailsStepProps {
  draft: WizardDraft;
  onChange: (draft: WizardDraft) => void;
  /** Required fields to mark, after a Continue that could not proceed. */
  missing: readonly Step1Field[];
  currentYear: number;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function Group({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <div className="border-t border-stone-100 pt-6 first:border-t-0 first:pt-0">
      <fieldset className="space-y-4">
        <legend className="text-base font-semibold text-stone-900">{title}</legend>
        {description ? <p className="-mt-3 text-sm text-stone-500">{description}</p> : null}
        {children}
      </fieldset>
    </div>
  );
}

export function VehicleDetailsStep({ draft, onChange, missing, currentYear }: VehicleDetailsStepProps) {
  const set = <K extends keyof WizardDraft>(key: K, value: WizardDraft[K]) => onChange({ ...draft, [key]: value });
  const error = (field: Step1Field) => (missing.includes(field) ? 'Required' : undefined);
  const freeTextModel = isFreeTextModelMake(draft.car_make);
  const models = modelsOfMake(draft.car_make);
  const years = range(CAR_YEAR_MIN, currentYear + 1).reverse();

  return (
    <div className="space-y-8">
      <Group title="The car" description="Tell renters exactly what they will drive.">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Make" required value={draft.car_make} error={error('car_make')} onChange={(event) => onChange(withMake(draft, event.target.value))}>
            <option value="">Select a make</option>
            {CAR_BRANDS.map((brand) => (
              <option key={brand.name} value={brand.name}>
                {brand.name}
              </option>
            ))}
          </SelectField>
          {freeTextModel ? (
            <TextField
              label="Model"
              required
              value={draft.car_model}
              maxLength={80}
              placeholder={draft.car_make === 'Bike' ? 'e.g. BMW R 1250 GS' : 'e.g. Venter 5-seater luggage trailer'}
              error={error('car_model')}
              onChange={(event) => set('car_model', event.target.value)}
            />
          ) : (
            <SelectField
              label="Model"
              required
              value={draft.car_model}
              disabled={!draft.car_make}
              error={error('car_model')}
              hint={draft.car_make ? undefined : 'Choose the make first'}
              onChange={(event) => set('car_model', event.target.value)}
            >
              <option value="">{draft.car_make ? 'Select a model' : 'Select a make first'}</option>
              {models.map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField label="Year" value={draft.car_year} onChange={(event) => set('car_year', Number(event.target.value))}>
            {years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </SelectField>
          <SelectField label="Vehicle type" required value={draft.car_type} error={error('car_type')} onChange={(event) => set('car_type', event.target.value)}>
            <option value="">Select a type</option>
            {CAR_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          <SelectField label="Colour" required value={draft.car_color} error={error('car_color')} onChange={(event) => set('car_color', event.target.value)}>
            <option value="">Select a colour</option>
            {CAR_COLOURS.map((colour) => (
              <option key={colour.name} value={colour.name}>
                {colour.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Plate number"
            required
            value={draft.car_plate_number}
            maxLength={20}
            autoComplete="off"
            placeholder="e.g. CA 123-456"
            className="uppercase placeholder:normal-case"
            error={error('car_plate_number')}
            onChange={(event) => set('car_plate_number', event.target.value)}
          />
        </div>
      </Group>

      <Group title="Value and price" description="Renters see the daily price; the value is for insurance and verification.">
        <div className="grid gap-4 sm:grid-cols-3">
          <NumericField
            label="Vehicle value (R)"
            required
            value={draft.car_value}
            error={error('car_value')}
            hint={draft.car_value > 0 ? formatRand(draft.car_value) : undefined}
            onValueChange={(value) => set('car_value', value)}
          />
          <NumericField
            label="Daily price (R)"
            required
            value={draft.car_rent_price}
            error={error('car_rent_price')}
            hint={draft.car_rent_price > 0 ? `${formatRand(draft.car_rent_price)} per day` : undefined}
            onValueChange={(value) => set('car_rent_price', value)}
          />
          <NumericField label="Odometer (km)" value={draft.car_odometer} onValueChange={(value) => set('car_odometer', value)} />
        </div>
      </Group>

      <Group title="Specifications">
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
          <SelectField label="Transmission" value={draft.transmission} onChange={(event) => set('transmission', event.target.value)}>
            {WIZARD_TRANSMISSIONS.map((transmission) => (
              <option key={transmission} value={transmission}>
                {transmission}
              </option>
            ))}
          </SelectField>
          <SelectField label="Fuel type" value={draft.fuelType} onChange={(event) => set('fuelType', event.target.value)}>
            {FUEL_TYPES.map((fuel) => (
              <option key={fuel} value={fuel}>
                {fuel}
              </option>
            ))}
          </SelectField>
          <SelectField label="Seats" value={draft.seats} onChange={(event) => set('seats', Number(event.target.value))}>
            {range(SEATS_MIN, SEATS_MAX).map((seats) => (
              <option key={seats} value={seats}>
                {seats}
              </option>
            ))}
          </SelectField>
          <SelectField label="Doors" value={draft.doors} onChange={(event) => set('doors', Number(event.target.value))}>
            {range(DOORS_MIN, DOORS_MAX).map((doors) => (
              <option key={doors} value={doors}>
                {doors}
              </option>
            ))}
          </SelectField>
          <TextField label="Engine" value={draft.engine} maxLength={60} placeholder="e.g. 1.4 TSI" onChange={(event) => set('engine', event.target.value)} />
          <TextField
            label="Fuel consumption"
            value={draft.fuelConsumption}
            maxLength={60}
            placeholder="e.g. 5.8L/100km"
            onChange={(event) => set('fuelConsumption', event.target.value)}
          />
        </div>
      </Group>

      <Group title="Pickup location" description="Where renters collect the car. You can add airport and delivery options later.">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Pickup location"
            required
            value={draft.pickupCity}
            error={draft.pickupCity === OTHER_CITY ? undefined : error('pickup_location')}
            onChange={(event) => set('pickupCity', event.target.value)}
          >
            <option value="">Select a city</option>
            {PICKUP_CITY_CHOICES.map((city) => (
              <option key={city} value={city}>
                {city}
              </option>
            ))}
          </SelectField>
          {draft.pickupCity === OTHER_CITY ? (
            <TextField
              label="Other location"
              required
              value={draft.pickupOther}
              maxLength={200}
              placeholder="Town or suburb"
              error={error('pickup_location')}
              onChange={(event) => set('pickupOther', event.target.value)}
            />
          ) : null}
        </div>
      </Group>

      <Group title="Photos" description="Bright, uncluttered photos from several angles get more bookings.">
        <PhotoPicker photos={draft.photos} onChange={(photos) => set('photos', photos)} />
      </Group>
    </div>
  );
}
