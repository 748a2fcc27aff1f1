// Correction requests in the admin's Users tab (issue 24, decision 049): a verified person asks for a
// detail they cannot change themselves (name, email, address, ID number, bank details) to be
// corrected. The administrator checks it against the person's documents and approves (the detail
// changes) or declines, always with a note the person reads; both are in the audit log.
import { CORRECTION_FIELD_LABELS, type AdminCorrectionRequest } from '@karoo/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { useDecideCorrection, useOpenCorrections } from '../api/admin-corrections';
import { AdminQueue } from './admin-queue';
import { NoteDialog } from './note-dialog';

function DecisionDialog({ request, decision, onClose }: { request: AdminCorrectionRequest; decision: 'approve' | 'decline'; onClose: () => void }) {
  const decide = useDecideCorrection();
  const notify = useNotification();
  const label = CORRECTION_FIELD_LABELS[request.field];
  const approve = decision === 'approve';
  return (
    <NoteDialog
      title={`${approve ? 'Approve' : 'Decline'}: ${label} of ${request.user.username}`}
      description={approve ? `Their ${label.toLowerCase()} becomes “${request.proposed_value}”.` : 'Nothing changes on their account.'}
      formLabel="Answer the correction request"
      noteLabel="Note for the person"
      maxLength={1000}
      tooShort="Write a note for the person (at least 3 characters)"
      submitLabel={approve ? 'Approve' : 'Decline'}
      submitVariant={approve ? 'primary' : 'danger'}
      pending={decide.isPending}
      onSubmit={async (note) => {
        await decide.mutateAsync({ id: request.id, decision, note });
        notify.success(approve ? 'Correction approved' : 'Correction declined', `${request.user.username} is told, with your note.`);
      }}
      failure="The decision could not be saved. Please try again."
      onClose={onClose}
    />
  );
}

export function CorrectionRequests() {
  const { data, isPending, isError } = useOpenCorrections();
  const [answering, setAnswering] = useState<{ request: AdminCorrectionRequest; decision: 'approve' | 'decline' } | null>(null);
  return (
    <AdminQueue
      id="correction-requests-title"
      title="Correction requests"
      intro="Verified people asking to correct a detail. Check it against their documents before approving."
      isPending={isPending}
      isError={isError}
      isEmpty={data?.length === 0}
      loading="Loading requests…"
      failed="Correction requests could not be loaded."
      empty="No open correction requests."
    >
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
    </AdminQueue>
  );
}
