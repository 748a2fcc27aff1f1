// Mail goes through an outbox (docs/decisions/025-mail-outbox.md): sending a message is writing a
// mail_outbox row, in the transaction of the change that causes it when there is one, and the mail
// worker (jobs/mail.worker.ts) delivers it after the commit, with retries. Through SMTP when SMTP_URL
// is set; otherwise the message is kept in the outbox, readable by admins, with its links printed
// to the log so a developer can finish a password reset locally.
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type AppContext, type Clock } from '../context';
import type { Db } from '../db/connection';
import type { Tx } from '../events/domain-events';
import { render } from '@react-email/components';
import { createElement } from 'react';
import { KarooEmail, karooEmailText, type KarooEmailProps } from './mail-templates/karoo-email';
import { insertOutboxMail, type OutboxMailRow } from './mail-outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** Writes the message to the outbox through `db` (a transaction's handle or the app's); returns its id. */
  enqueue(db: Db, message: MailMessage, now: Date): Promise<string>;
  /** Mail that is no part of a change (a reset link): enqueued on its own and the worker woken. */
  send(message: MailMessage): Promise<void>;
  /** Tells the worker of this process that mail was committed, so it does not wait for its poll. */
  wake(): void;
  /** The worker listens here; returns the way to stop listening. */
  onWake(listener: () => void): () => void;
  /** One delivery attempt of a claimed row: SMTP (throws when refused), or the log without SMTP. */
  deliver(mail: OutboxMailRow): Promise<void>;
  close(): void;
}

/**
 * SMTP timeouts added to SMTP_URL unless it sets them: well inside the worker's lease
 * (MAIL_LEASE_MS), so no lease runs out mid-send. They travel in the URL's query because
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

export function createMailer(options: { db: Db; log: FastifyBaseLogger; smtpUrl?: string | undefined; from: string; clock?: Clock }): Mailer {
  const { db, log, smtpUrl, from, clock = systemClock } = options;
  const transporter: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpConnectionUrl(smtpUrl)) : null;
  const transport = transporter ? 'smtp' : 'outbox';
  const domain = messageIdDomain(from);
  const listeners = new Set<() => void>();

  const mailer: Mailer = {
    transport,
    async enqueue(target, message, now) {
      const id = randomUUID();
      return insertOutboxMail(target, {
        id,
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
        transport,
        message_id: `<${id}@${domain}>`,
        next_attempt_at: now,
      });
    },
    async send(message) {
      await mailer.enqueue(db, message, clock.now());
      mailer.wake();
    },
    wake() {
      for (const listener of listeners) listener();
    },
    onWake(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
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
      });
    },
    close() {
      listeners.clear();
      transporter?.close();
    },
  };
  return mailer;
}

/**
 * Mail that belongs to a change: written in its transaction (gone if it rolls back), and the
 * worker woken once it has committed.
 */
export async function queueMail(ctx: Pick<AppContext, 'mailer'>, tx: Tx, message: MailMessage): Promise<void> {
  await ctx.mailer.enqueue(tx.db, message, tx.now);
  tx.afterCommit(() => ctx.mailer.wake());
}

/** An email's text and HTML parts, from the one template (mail-templates/karoo-email.tsx). */
export async function renderMail(input: KarooEmailProps): Promise<{ text: string; html: string }> {
  return { text: karooEmailText(input), html: await render(createElement(KarooEmail, input)) };
}
