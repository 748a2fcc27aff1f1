// Mail goes through SMTP when SMTP_URL is set; otherwise into the outbox table, with its links
// printed to the log so a developer can finish a password reset locally. Every message is
// recorded in mail_outbox either way, with when it was sent or why it failed.
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../context';
import type { Db } from '../db/connection';
import { insertOutboxMail, markOutboxMailFailed, markOutboxMailSent } from './mail-outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

export function createMailer(options: { db: Db; log: FastifyBaseLogger; smtpUrl?: string; from: string; clock?: Clock }): Mailer {
  const { db, log, smtpUrl, from, clock = systemClock } = options;
  const transporter: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;

  return {
    transport: transporter ? 'smtp' : 'outbox',
    async send(message) {
      const id = await insertOutboxMail(db, {
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        transport: transporter ? 'smtp' : 'outbox',
      });

      if (!transporter) {
        const links = message.text.match(/https?:\/\/\S+/g) ?? [];
        log.info({ mailTo: message.to, subject: message.subject, links }, 'mail kept in the outbox (no SMTP_URL)');
        return;
      }
      try {
        await transporter.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
        await markOutboxMailSent(db, id, clock.now());
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await markOutboxMailFailed(db, id, reason.slice(0, 500));
        log.error({ err: error, mailTo: message.to }, 'mail could not be sent');
      }
    },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, readable email: a greeting, paragraphs and an optional button link. */
export function renderMail(input: { greeting: string; paragraphs: string[]; action?: { label: string; url: string } }) {
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.action ? [`${input.action.label}: ${input.action.url}`, ''] : []),
    'The Karoo team',
  ].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;max-width:560px;margin:auto;color:#1f2937">
<p>${escapeHtml(input.greeting)}</p>
${input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${input.action ? `<p><a href="${escapeHtml(input.action.url)}" style="display:inline-block;background:#c2410c;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(input.action.label)}</a></p>` : ''}
<p style="color:#6b7280">The Karoo team</p></div>`;
  return { text, html };
}
