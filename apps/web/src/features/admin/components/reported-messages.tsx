// Reported messages in the admin's Bookings tab (issue 21, decision 041): each open report with its
// booking, who reported it and why, and the message as written. Read conversation opens the audited
// reader with the report as the reason; Mark handled asks for a note, which the audit log keeps.
import { MESSAGE_REPORTS_PAGE_SIZE, type AdminMessageReport } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useOpenMessageReports, useResolveMessageReport } from '../api/admin-message-reports';
import { ReadConversationDialog } from './read-conversation-dialog';

const NOTE_MAX = 1000;

function MarkHandledDialog({ report, onClose }: { report: AdminMessageReport; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const resolve = useResolveMessageReport();
  const notify = useNotification();
  const noteId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (note.trim().length < 3) {
      setError('Say how the report was handled');
      return;
    }
    try {
      await resolve.mutateAsync({ id: report.id, note: note.trim() });
      notify.success('Report handled', `Booking ${report.booking_number}: the note is in the audit log.`);
      onClose();
    } catch (err) {
      setError(messageOf(err, 'The report could not be marked handled. Please try again.'));
    }
  }

  return (
    <Dialog open onClose={onClose} title={`Mark the report on ${report.booking_number} handled`} description={`Reason given: ${report.reason}`}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Mark report handled">
        <div>
          <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-700">
            What was done
          </label>
          <textarea
            id={noteId}
            rows={3}
            required
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? `${noteId}-error` : undefined}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
          />
          {error ? (
            <p id={`${noteId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={resolve.isPending}>
            Mark handled
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ReportItem({ report, onRead, onHandle }: { report: AdminMessageReport; onRead: () => void; onHandle: () => void }) {
  const { message } = report;
  return (
    <li className="rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="message-report-row">
      <p className="text-sm font-semibold text-stone-900">Booking {report.booking_number}</p>
      <p className="text-xs text-stone-700">
        Reported by {report.reporter.username}, {formatDateTime(report.created_at)}
        {message.report_count > 1 ? ` · reported ${message.report_count} times` : ''}
      </p>
      <p className="mt-1 text-sm text-stone-800">
        <span className="font-medium">Reason:</span> {report.reason}
      </p>
      <figure className="mt-2 rounded-md border border-stone-200 bg-white p-2">
        <figcaption className="text-xs text-stone-600">
          {message.sender.full_name} ({message.sender.username}) wrote, {formatDateTime(message.created_at)}:
        </figcaption>
        <blockquote className="mt-1 whitespace-pre-wrap break-words text-sm text-stone-900">{message.body}</blockquote>
      </figure>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" aria-label={`Read conversation ${report.booking_number}, reported by ${report.reporter.username}`} onClick={onRead}>
          Read conversation
        </Button>
        <Button size="sm" aria-label={`Mark handled: report on ${report.booking_number} by ${report.reporter.username}`} onClick={onHandle}>
          Mark handled
        </Button>
      </div>
    </li>
  );
}

export function ReportedMessages() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useOpenMessageReports(page);
  const [reading, setReading] = useState<AdminMessageReport | null>(null);
  const [handling, setHandling] = useState<AdminMessageReport | null>(null);
  const pages = data ? Math.max(1, Math.ceil(data.total / MESSAGE_REPORTS_PAGE_SIZE)) : 1;
  // A page emptied by handling its last report falls back to the one before.
  if (data && page > pages) setPage(pages);

  return (
    <section aria-labelledby="reported-messages-title" className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="reported-messages-title" className="text-base font-semibold text-stone-900">
        Reported messages
      </h2>
      {isPending ? <p className="mt-2 text-sm text-stone-600">Loading reports…</p> : null}
      {isError ? <p className="mt-2 text-sm text-red-700">Reported messages could not be loaded.</p> : null}
      {data && data.total === 0 ? <p className="mt-2 text-sm text-stone-600">No reported messages.</p> : null}
      {data && data.reports.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {data.reports.map((report) => (
            <ReportItem key={report.id} report={report} onRead={() => setReading(report)} onHandle={() => setHandling(report)} />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav aria-label="Reported messages pages" className="mt-3 flex items-center justify-between gap-2 text-sm text-stone-700">
          <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages} ({data?.total} open)
          </span>
          <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
      {reading ? (
        <ReadConversationDialog
          key={reading.id}
          booking={{ id: reading.booking_id, booking_id: reading.booking_number }}
          initialReason={`Report: ${reading.reason}`}
          onClose={() => setReading(null)}
        />
      ) : null}
      {handling ? <MarkHandledDialog key={handling.id} report={handling} onClose={() => setHandling(null)} /> : null}
    </section>
  );
}
