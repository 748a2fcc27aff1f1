// Mail goes through an outbox (docs/decisions/025-mail-outbox.md, 038-one-job-queue.md): sending a
// message is writing a mail_outbox row and enqueuing its 'mail.send' job, both in the transaction of
// the change that causes it, so a change that rolls back sends nothing. The job (jobs/mail.job.ts)
// delivers the row after the commit, with retries, always with the row's Message-ID. Through SMTP
// when SMTP_URL is set; otherwise the message is kept in the outbox, readable by admins, with its
// links printed to the log so a developer can finish a password reset locally.
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailKind } from '../db/schema';
import type { AppContext } from '../context';
import { inTransaction, type Tx } from '../events/domain-events';
import { render } from '@react-email/components';
import { createElement } from 'react';
import { KarooEmail, karooEmailText, type KarooEmailProps } from './mail-templates/karoo-email';
import { assertMarketingAllowed } from './marketing-consent';
import { insertOutboxMail, requeueFailedMail, type NewOutboxMail, type OutboxMailRow } from './mail-outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * 'marketing' (decision 049, POPIA s. 69): queued only for a user whose latest marketing choice is
   * yes, and delivered only if it still is; it must name the user and carry the unsubscribe headers.
   * Everything else (bookings, payments, account mail) is transactional, the default.
   */
  kind?: MailKind;
  /** The Karoo user the mail is for (required for marketing). */
  userId?: string | null;
  /** The booking the mail is about: an erasure of either party finds the mail by it (migration 0043). */
  bookingId?: string | null;
  /** Extra headers: a marketing mail's List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** The outbox row of a new message: a fresh id and the Message-ID that every attempt will carry. */
  outboxRow(message: MailMessage, now: Date): NewOutboxMail & { id: string };
  /** One delivery attempt of an outbox row: SMTP (throws when refused), or the log without SMTP. */
  deliver(mail: OutboxMailRow): Promise<void>;
  close(): void;
}

/**
 * SMTP timeouts added to SMTP_URL unless it sets them: well inside the mail job's timeout
 * (MAIL_TIMEOUT_SECONDS), so no attempt is taken for dead while it is still sending. They travel in the URL's query because
 * nodemailer reads a connection URL alone and drops options passed beside it (nodemailer's own
 * defaults are 2 minutes to connect and 10 minutes of socket silence).
 */
const SMTP_DEFAULTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpConnectionUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(SMTP_DEFAULTS)) if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  return url.toString();
}

/** The domain of the From address, for Message-IDs: "Karoo <no-reply@karoo.co.za>" gives karoo.co.za. */
function messageIdDomain(from: string): string {
  return /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'karoo.mail';
}

export function createMailer(options: { log: FastifyBaseLogger; smtpUrl?: string | undefined; from: string }): Mailer {
  const { log, smtpUrl, from } = options;
  const transporter: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpConnectionUrl(smtpUrl)) : null;
  const transport = transporter ? 'smtp' : 'outbox';
  const domain = messageIdDomain(from);

  return {
    transport,
    outboxRow(message, now) {
      const id = randomUUID();
      return {
        id,
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
        transport,
        message_id: `<${id}@${domain}>`,
        next_attempt_at: now,
        kind: message.kind ?? 'transactional',
        user_id: message.userId ?? null,
        booking_id: message.bookingId ?? null,
        // Every mail of this code says what it is about: its booking, or (none) only its recipient.
        reach_recorded: true,
        headers: message.headers ? JSON.stringify(message.headers) : null,
      };
    },
    async deliver(mail) {
      if (!transporter) {
        const links = mail.text_body.match(/https?:\/\/\S+/g) ?? [];
        log.info({ mailTo: mail.to_address, subject: mail.subject, links }, 'mail kept in the outbox (no SMTP_URL)');
        return;
      }
      await transporter.sendMail({
        from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        ...(mail.html_body ? { html: mail.html_body } : {}),
        // The same Message-ID on every attempt: a message delivered twice is recognisably one.
        ...(mail.message_id ? { messageId: mail.message_id } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
    },
    close() {
      transporter?.close();
    },
  };
}

/** What queueing mail in a transaction of its own needs of the app. */
export type MailContext = Pick<AppContext, 'db' | 'clock' | 'events' | 'mailer' | 'jobs'>;

/**
 * Mail that belongs to a change: the outbox row and its 'mail.send' job are written in the change's
 * transaction (both gone if it rolls back), and this instance's mail worker is woken once it has
 * committed. Returns the row's id.
 */
export async function queueMail(ctx: Pick<AppContext, 'mailer' | 'jobs'>, tx: Tx, message: MailMessage): Promise<string> {
  if (message.kind === 'marketing') await assertMarketingAllowed(tx.db, message);
  const id = await insertOutboxMail(tx.db, ctx.mailer.outboxRow(message, tx.now));
  await ctx.jobs.enqueue(tx, 'mail.send', { mailId: id });
  return id;
}

/** Mail that is no part of a change (a reset link): queued in a unit of work of its own. */
export function sendMail(ctx: MailContext, message: MailMessage): Promise<string> {
  return inTransaction(ctx, (tx) => queueMail(ctx, tx, message));
}

/**
 * Failed mail back in the queue with fresh attempts: the row and a new job for it in one transaction
 * (its old job stays in the dead-letter queue). Undefined unless the row is 'failed'.
 */
export function resendFailedMail(ctx: MailContext, id: string): Promise<OutboxMailRow | undefined> {
  return inTransaction(ctx, async (tx) => {
    const row = await requeueFailedMail(tx.db, id, tx.now);
    if (row) await ctx.jobs.enqueue(tx, 'mail.send', { mailId: id });
    return row;
  });
}

/** An email's text and HTML parts, from the one template (mail-templates/karoo-email.tsx). */
export async function renderMail(input: KarooEmailProps): Promise<{ text: string; html: string }> {
  return { text: karooEmailText(input), html: await render(createElement(KarooEmail, input)) };
}
