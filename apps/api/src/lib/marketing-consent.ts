// The mail layer's gate for direct marketing (POPIA s. 69, decision 049): a mail of kind 'marketing'
// is queued only for a Karoo user whose latest marketing choice is yes and only with the one-click
// unsubscribe headers (RFC 8058), and the mail job checks the choice again just before sending, so a
// person who unsubscribed between the two gets nothing. No module can send marketing around it: the
// check sits under queueMail, which every mail goes through.
// The choices are the privacy module's table (privacy_consents); this is its one reader outside the
// module, because the gate must sit below every module.
import type { Db } from '../db/connection';
import { AppError } from './app-error';

export const MARKETING_WITHOUT_CONSENT = 'Marketing mail is only sent to people who opted in to it.';
export const MARKETING_CONSENT_WITHDRAWN = 'Not sent: the person withdrew their marketing consent before it went out.';

/** True when the person's latest marketing choice is yes. */
export async function hasMarketingConsent(db: Db, userId: string): Promise<boolean> {
  const latest = await db
    .selectFrom('privacy_consents')
    .select('granted')
    .where('user_id', '=', userId)
    .where('kind', '=', 'marketing')
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.granted === true;
}

/** Refuses (409) a marketing mail without a named user who opted in, or without the unsubscribe headers. */
export async function assertMarketingAllowed(db: Db, message: { userId?: string | null; headers?: Record<string, string> }): Promise<void> {
  const headers = message.headers ?? {};
  if (!headers['List-Unsubscribe'] || headers['List-Unsubscribe-Post'] !== 'List-Unsubscribe=One-Click') {
    throw new AppError(500, 'A marketing mail needs its one-click unsubscribe headers.');
  }
  if (!message.userId || !(await hasMarketingConsent(db, message.userId))) throw new AppError(409, MARKETING_WITHOUT_CONSENT);
}
