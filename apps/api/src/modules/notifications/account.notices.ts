// What an administrator's decision on an account tells its owner (decisions.md section 3). The users
// module sits below notifications, so these notices are the notifications module's own reactions
// to the users module's events, in the transaction of the change.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { notify } from './notifications.service';
import { withReason } from './notice-words';

export async function userVerified(tx: Tx, { user }: EventOf<'user.verified'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_verified',
    title: 'Account verified',
    message: 'Your Karoo account has been verified. You can now book cars and list your own.',
    link: '/dashboard',
  });
}

export async function userRejected(tx: Tx, { user, notes }: EventOf<'user.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_rejected',
    title: 'Verification rejected',
    message: `Your verification was not approved${withReason(notes)} Please update your documents and details on your profile.`,
    link: '/profile',
  });
}
