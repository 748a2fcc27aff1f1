// The car registration document panel (document 2): its state (No Document, Pending Verification,
// verified, rejected with the admin's notes), an upload control while there is none or it was
// rejected, a simulated progress bar, and View through the authorised download route. The host
// dashboard shows it in Manage Details; the router also hands it to the list-a-car wizard.
import { MAX_UPLOAD_BYTES, type Car } from '@karoo/shared';
import { clsx } from 'clsx';
import { CheckCircle2, Clock, Eye, FileText, XCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FileDropZone, UploadProgress } from '@/components/ui/file-drop-zone';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { checkChosenFile, type FileRule } from '@/lib/file-checks';
import { formatDate } from '@/lib/format';
import { openRegistrationDocument } from '../api/download-registration-document';
import { useUploadRegistrationDocument } from '../api/upload-registration-document';

const ACCEPT_ATTRIBUTE = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';
const PROGRESS_STEP_MS = 200;

/** Each file is checked by content the moment it is chosen (lib/file-checks.ts); the server checks again. */
const REGISTRATION_RULE: FileRule = { types: ['application/pdf', 'image/jpeg', 'image/png'], maxBytes: MAX_UPLOAD_BYTES, noun: 'file' };

type RegistrationState = 'none' | 'pending' | 'verified' | 'rejected';

export function registrationState(document: Car['registration_document']): RegistrationState {
  if (!document) return 'none';
  if (document.verified === true) return 'verified';
  if (document.verified === false) return 'rejected';
  return 'pending';
}

const STATES: Record<RegistrationState, { label: string; tone: BadgeTone; icon: ReactNode }> = {
  none: { label: 'No Document', tone: 'neutral', icon: null },
  pending: { label: 'Pending Verification', tone: 'warning', icon: <Clock className="size-3" aria-hidden="true" /> },
  verified: { label: 'Verified', tone: 'success', icon: <CheckCircle2 className="size-3" aria-hidden="true" /> },
  rejected: { label: 'Rejected', tone: 'danger', icon: <XCircle className="size-3" aria-hidden="true" /> },
};

export interface RegistrationDocumentPanelProps {
  car: Car;
  /** Drops the outer border, for a panel inside another card. */
  plain?: boolean;
}

export function RegistrationDocumentPanel({ car: given, plain = false }: RegistrationDocumentPanelProps) {
  const { user } = useAuth();
  const notify = useNotification();
  const inputId = useId();
  const titleId = useId();
  const upload = useUploadRegistrationDocument(user?.username);
  const [progress, setProgress] = useState<number | null>(null);
  /** Why the last file chosen was refused, naming it. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  // The newer of the car we were given and the one the upload answered with.
  const car = upload.data && upload.data.updated_at >= given.updated_at ? upload.data : given;
  const document = car.registration_document ?? null;
  const state = registrationState(document);
  const canUpload = state === 'none' || state === 'rejected';
  const busy = upload.isPending;
  const badge = STATES[state];

  const stopTimer = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  };

  const handleFile = async (file: File) => {
    const problem = await checkChosenFile(file, REGISTRATION_RULE);
    setRefusal(problem);
    if (problem) return;
    // No progress events from fetch: 10% steps to 90%, then 100% when the server answers.
    setProgress(0);
    timer.current = setInterval(() => setProgress((current) => (current !== null && current < 90 ? current + 10 : current)), PROGRESS_STEP_MS);
    try {
      await upload.mutateAsync({ carUsername: car.car_username, file });
      stopTimer();
      setProgress(100);
      notify.success('Document Uploaded', 'Your registration document was uploaded and is waiting for verification.');
      setTimeout(() => setProgress(null), 800);
    } catch (error) {
      stopTimer();
      setProgress(null);
      if (isApiError(error) && error.status > 0) {
        notify.error('Upload Failed', messageOf(error, 'Failed to upload document.'));
      } else {
        notify.error('Upload Error', 'An error occurred while uploading the document.');
      }
    }
  };

  const view = () => {
    openRegistrationDocument(car.car_username).catch((error: unknown) =>
      notify.error('Download Failed', messageOf(error, 'Failed to download document')),
    );
  };

  return (
    <section aria-labelledby={titleId} data-testid="registration-document" className={clsx(!plain && 'rounded-xl border border-stone-200 p-4')}>
      <div className="flex flex-col-reverse items-start gap-2 min-[480px]:flex-row min-[480px]:justify-between min-[480px]:gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-sm font-semibold text-stone-900">
            Registration Document
          </h3>
          <p className="mt-0.5 text-xs text-stone-500">The vehicle&apos;s registration certificate (NaTIS). Kept private: only you and Karoo administrators can open it.</p>
        </div>
        <Badge tone={badge.tone} icon={badge.icon}>
          {badge.label}
        </Badge>
      </div>

      {document ? (
        <div className="mt-3 flex items-center gap-3 rounded-lg bg-stone-50 px-3 py-2.5 ring-1 ring-stone-200">
          <FileText className="size-5 shrink-0 text-stone-400" aria-hidden="true" />
          <div className="min-w-0 flex-1 text-xs">
            <p className="truncate font-medium text-stone-800" title={document.filename}>
              {document.filename}
            </p>
            <p className="text-stone-500">Uploaded {formatDate(document.uploaded_at)}</p>
          </div>
          <Button size="sm" variant="ghost" icon={<Eye className="size-4" aria-hidden="true" />} onClick={view} aria-describedby={titleId}>
            View
          </Button>
        </div>
      ) : null}

      {state === 'rejected' ? (
        <div role="note" className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-900">
          <p className="font-semibold">This document was rejected.</p>
          <p className="mt-0.5">{document?.verification_notes || 'Please upload a clearer or current copy.'}</p>
        </div>
      ) : null}
      {state === 'pending' ? <p className="mt-3 text-xs text-stone-500">Our team will check it shortly. You will get a notification when it is verified.</p> : null}
      {state === 'verified' ? <p className="mt-3 text-xs text-emerald-700">Verified: nothing more to do here.</p> : null}

      {canUpload ? (
        <FileDropZone
          inputId={inputId}
          accept={ACCEPT_ATTRIBUTE}
          label={state === 'rejected' ? 'Upload a new document' : 'Upload registration document'}
          hint="PDF, JPG or PNG, max 10MB"
          disabled={busy}
          describedBy={titleId}
          testId="upload-registration-document"
          error={refusal}
          onFile={(file) => void handleFile(file)}
        />
      ) : null}

      <UploadProgress progress={progress} label="Registration document upload progress" />
    </section>
  );
}
