// What happens to accounts, in the words the rest of Karoo reacts to (events/domain-events.ts).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'user.verified': { user: UserRef; before: string };
    'user.rejected': { user: UserRef; notes: string | null; before: string };
    'user.created': { user: UserRef; after: Record<string, unknown> };
    /** Someone signed up; they accepted the terms and privacy notice in force, and made a marketing choice (decision 049). */
    'user.registered': { user: UserRef; marketingOptIn: boolean };
    /** An administrator opened one of a person's verification documents (audited; the person sees when and by which role). */
    'user.document_viewed': { user: UserRef; document: string };
    'user.updated': { user: UserRef; before: Record<string, unknown>; after: Record<string, unknown> };
    'user.deleted': { user: UserRef; before: Record<string, unknown> };
    /** Someone asked for a sign-in link in this account's name; `url` carries the one-time token (decision 030). */
    'user.sign_in_link_requested': { user: { id: string; email: string; full_name: string }; url: string };
  }
}

/** A user as events and the audit log name them. */
export interface UserRef {
  id: string;
  username: string;
}
