// What each car event tells its owner (decisions.md section 3), in the transaction of the change.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { carName, HOST_DASHBOARD, notify, withReason } from '../notifications';

export async function carVerified(tx: Tx, { car }: EventOf<'car.verified'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, { type: 'car_verified', title: 'Car verified', message: `Your ${carName(car)} has been verified and is now listed on Karoo.`, link: HOST_DASHBOARD, aboutRecipientOnly: true });
}

export async function carRejected(tx: Tx, { car, notes }: EventOf<'car.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'car_rejected',
    title: 'Car not approved',
    message: `Your ${carName(car)} was not approved: ${notes}. Update the listing to send it for verification again.`,
    link: HOST_DASHBOARD,
    aboutRecipientOnly: true,
  });
}

export async function registrationVerified(tx: Tx, { car }: EventOf<'car.registration_verified'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'registration_verified',
    title: 'Registration document verified',
    message: `The registration document of your ${carName(car)} has been verified.`,
    link: HOST_DASHBOARD,
    aboutRecipientOnly: true,
  });
}

export async function registrationRejected(tx: Tx, { car, notes }: EventOf<'car.registration_rejected'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'registration_rejected',
    title: 'Registration document rejected',
    message: `The registration document of your ${carName(car)} was rejected${withReason(notes)} Please upload a new one.`,
    link: HOST_DASHBOARD,
    aboutRecipientOnly: true,
  });
}
