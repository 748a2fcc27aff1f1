// Admin views of platform internals: the mail outbox, so a developer (or the end-to-end tests)
// can read mail when no SMTP server is configured.
import type { AppContext } from '../../context';
import { listOutboxMail } from '../../lib/mail-outbox.repository';

export interface OutboxMailView {
  id: string;
  to: string;
  subject: string;
  text: string;
  transport: 'smtp' | 'outbox';
  sent_at: string | null;
  error: string | null;
  created_at: string;
}

export async function listRecentMail(ctx: AppContext, filters: { to?: string | undefined; limit: number }): Promise<OutboxMailView[]> {
  const rows = await listOutboxMail(ctx.db, filters);
  return rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    text: r.text_body,
    transport: r.transport,
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    error: r.error,
    created_at: new Date(r.created_at).toISOString(),
  }));
}
