// Reported messages in the admin's Bookings tab (issue 21, decision 041): each open report with its
// booking, who reported it and why, and the message as written. Read conversation opens the audited
// reader with the report as the reason; Mark handled asks for a note, which the audit log keeps.
import { MESSAGE_REPORTS_PAGE_SIZE, type AdminMessageReport } from '@karoo/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { useOpenMessageReports, useResolveMessageReport } from '../api/admin-message-reports';
import { AdminQueue } from './admin-queue';
import { NoteDialog } from './note-dialog';
import { ReadConversationDialog } from './read-conversation-dialog';

const NOTE_MAX = 1000;

function MarkHandledDialog({ report, onClose }: { report: AdminMessageReport; onClose: () => void }) {
  const resolve = useResolveMessageReport();
  const notify = useNotification();
  return (
    <NoteDialog
      title={`Mark the report on ${report.booking_number} handled`}
      description={`Reason given: ${report.reason}`}
      formLabel="Mark report handled"
      noteLabel="What was done"
      maxLength={NOTE_MAX}
      tooShort="Say how the report was handled"
      submitLabel="Mark handled"
      pending={resolve.isPending}
      onSubmit={async (note) => {
        await resolve.mutateAsync({ id: report.id, note });
        notify.success('Report handled', `Booking ${report.booking_number}: the note is in the audit log.`);
      }}
      failure="The report could not be marked handled. Please try again."
      onClose={onClose}
    />
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
    <AdminQueue
      id="reported-messages-title"
      title="Reported messages"
      isPending={isPending}
      isError={isError}
      isEmpty={data?.total === 0}
      loading="Loading reports…"
      failed="Reported messages could not be loaded."
      empty="No reported messages."
    >
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
    </AdminQueue>
  );
}
