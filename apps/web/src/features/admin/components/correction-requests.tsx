// Correction requests in the admin's Users tab (issue 24, decision 049): a verified person asks for a
// detail they cannot change themselves (name, email, address, ID number, bank details) to be
// corrected. The administrator checks it against the person's documents and approves (the detail
// changes) or declines, always with a note the person reads; both are in the audit log.
import { CORRECTION_FIELD_LABELS, type AdminCorrectionRequest } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDecideCorrection, useOpenCorrections } from '../api/admin-corrections';

function DecisionDialog({ request, decision, onClose }: { request: AdminCorrectionRequest; decision: 'approve' | 'decline'; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = useDecideCorrection();
  const notify = useNotification();
  const noteId = useId();
  const label = CORRECTION_FIELD_LABELS[request.field];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (note.trim().length < 3) {
      setError('Write a note for the person (at least 3 characters)');
      return;
    }
    try {
      await decide.mutateAsync({ id: request.id, decision, note: note.trim() });
      notify.success(decision === 'approve' ? 'Correction approved' : 'Correction declined', `${request.user.username} is told, with your note.`);
      onClose();
    } catch (err) {
      setError(messageOf(err, 'The decision could not be saved. Please try again.'));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`${decision === 'approve' ? 'Approve' : 'Decline'}: ${label} of ${request.user.username}`}
      description={decision === 'approve' ? `Their ${label.toLowerCase()} becomes “${request.proposed_value}”.` : 'Nothing changes on their account.'}
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Answer the correction request">
        <div>
          <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Note for the person
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={1000}
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
          <Button type="submit" variant={decision === 'approve' ? 'primary' : 'danger'} loading={decide.isPending}>
            {decision === 'approve' ? 'Approve' : 'Decline'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function CorrectionRequests() {
  const { data, isPending, isError } = useOpenCorrections();
  const [answering, setAnswering] = useState<{ request: AdminCorrectionRequest; decision: 'approve' | 'decline' } | null>(null);
  return (
    <section aria-labelledby="correction-requests-title" className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="correction-requests-title" className="text-base font-semibold text-stone-900">
        Correction requests
      </h2>
      <p className="mt-0.5 text-sm text-stone-600">Verified people asking to correct a detail. Check it against their documents before approving.</p>
      {isPending ? <p className="mt-2 text-sm text-stone-600">Loading requests…</p> : null}
      {isError ? <p className="mt-2 text-sm text-red-700">Correction requests could not be loaded.</p> : null}
      {data && data.length === 0 ? <p className="mt-2 text-sm text-stone-600">No open correction requests.</p> : null}
      {data && data.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {data.map((request) => (
            <li key={request.id} className="rounded-lg border border-stone-200 p-3" data-testid="correction-request-row">
              <p className="text-sm font-semibold text-stone-900">
                {request.user.full_name} ({request.user.username}): {CORRECTION_FIELD_LABELS[request.field]}
              </p>
              <p className="text-xs text-stone-600">Asked {formatDateTime(request.created_at)}</p>
              <p className="mt-1 break-words text-sm text-stone-800">
                {request.current_value ?? '(empty)'} → <strong>{request.proposed_value}</strong>
              </p>
              <p className="mt-1 text-sm text-stone-700">
                <span className="font-medium">Why:</span> {request.reason}
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button size="sm" aria-label={`Approve the ${CORRECTION_FIELD_LABELS[request.field]} correction of ${request.user.username}`} onClick={() => setAnswering({ request, decision: 'approve' })}>
                  Approve
                </Button>
                <Button size="sm" variant="danger-outline" aria-label={`Decline the ${CORRECTION_FIELD_LABELS[request.field]} correction of ${request.user.username}`} onClick={() => setAnswering({ request, decision: 'decline' })}>
                  Decline
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {answering ? <DecisionDialog request={answering.request} decision={answering.decision} onClose={() => setAnswering(null)} /> : null}
    </section>
  );
}
