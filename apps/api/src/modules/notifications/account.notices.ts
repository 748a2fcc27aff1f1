// What an administrator's decision on an account tells its owner (decisions.md section 3). The users
// module sits below notifications, so these notices are the notifications module's own reactions
// to the users module's events, in the transaction of the change.
import { SIGN_IN_LINK_TTL_MS } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { queueMail, renderMail } from '../../lib/mail';
import { notify } from './notifications.service';
import { withReason } from './notice-words';

export async function userVerified(tx: Tx, { user }: EventOf<'user.verified'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_verified',
    title: 'Account verified',
    message: 'Your Karoo account has been verified. You can now book cars and list your own.',
    link: '/dashboard',
    aboutRecipientOnly: true,
  });
}

export async function userRejected(tx: Tx, { user, notes }: EventOf<'user.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_rejected',
    title: 'Verification rejected',
    message: `Your verification was not approved${withReason(notes)} Please update your documents and details on your profile.`,
    link: '/profile',
    aboutRecipientOnly: true,
  });
}

/**
 * A sign-in link asked for in this account's name (decision 030): mailed to the account's own
 * address, never shown to whoever asked, and sent whatever the emailNotifications setting says,
 * since it is how a held-out owner gets in. It is no notification for the in-app list.
 */
export async function signInLinkRequested(tx: Tx, { user, url }: EventOf<'user.sign_in_link_requested'>, ctx: AppContext) {
  const mail = await renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [
      'Someone asked for a link to sign in to your Karoo account without your password. If it was you, use the button below.',
      `The link works once and expires in ${SIGN_IN_LINK_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this email: the link is only in this email, and your password stays the same.`,
    ],
    action: { label: 'Sign in to Karoo', url },
  });
  await queueMail(ctx, tx, { to: user.email, subject: 'Your Karoo sign-in link', ...mail });
}
