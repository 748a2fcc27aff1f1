// "Deposit and distance" of a car (issue 34; decision 064): the deposit (R 0, or within the admin's
// bounds), the tank size fuel charges are worked from, the kilometres a day included (empty:
// unlimited) and the rate per extra kilometre. Saved with PUT /car/updateCar/{id}; the server's
// refusal is shown in its own words.
import type { Car } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { apiClient, messageOf } from '@/lib/api-client';
import { formatRand } from '@/lib/format';
import { useSettings } from '@/lib/queries/settings';
import { replaceCachedCar } from '../api/get-host-cars';

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

export function TripTermsEditor({ car, username }: { car: Car; username: string }) {
  const notify = useNotification();
  const queryClient = useQueryClient();
  const bounds = useSettings().data?.trip_charges;
  const [deposit, setDeposit] = useState(String(car.deposit));
  const [tank, setTank] = useState(car.tank_litres === null ? '' : String(car.tank_litres));
  const [allowance, setAllowance] = useState(car.distance_allowance_km === null ? '' : String(car.distance_allowance_km));
  const [rate, setRate] = useState(String(car.extra_km_rate));
  const save = useMutation({
    mutationFn: async () =>
      (
        await apiClient.put<Car>(`/car/updateCar/${encodeURIComponent(car.id)}`, {
          deposit: Number(deposit),
          tank_litres: numberOrNull(tank),
          distance_allowance_km: numberOrNull(allowance),
          extra_km_rate: Number(rate || 0),
        })
      ).data,
    onSuccess: (saved) => {
      replaceCachedCar(queryClient, username, saved);
      notify.success('Deposit and Distance Saved', 'New bookings use these terms; booked trips keep theirs.');
    },
    onError: (error) => notify.error('Update Failed', messageOf(error, 'The terms could not be saved. Please try again.')),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="space-y-4 pb-4" aria-label="Deposit and distance">
      <Input
        label="Deposit (R)"
        type="number"
        inputMode="numeric"
        min={0}
        step="1"
        value={deposit}
        onChange={(e) => setDeposit(e.target.value)}
        hint={bounds ? `R 0, or ${formatRand(bounds.deposit_min)} to ${formatRand(bounds.deposit_max)}. Charged with the trip and back after ${bounds.claim_window_hours} hours if you claim nothing.` : undefined}
      />
      <Input label="Tank size (litres)" type="number" inputMode="numeric" min={10} max={250} step="1" value={tank} onChange={(e) => setTank(e.target.value)} hint="Fuel charges are worked out from it and the check-in and check-out gauges." />
      <Input label="Kilometres a day included" type="number" inputMode="numeric" min={50} max={5000} step="1" value={allowance} onChange={(e) => setAllowance(e.target.value)} hint="Leave empty for unlimited kilometres." />
      <Input label="Rate per extra kilometre (R)" type="number" inputMode="decimal" min={0} max={100} step="0.01" value={rate} onChange={(e) => setRate(e.target.value)} />
      <Button type="submit" loading={save.isPending}>
        Save deposit and distance
      </Button>
    </form>
  );
}
