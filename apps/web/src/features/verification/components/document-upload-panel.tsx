// The profile's verification documents (document 3, document upload widget): one slot per
// document with a dashed drop area, a simulated progress bar, and authorised view/download.
import {
  DOCUMENT_LABELS,
  DOCUMENT_TYPES,
  MAX_UPLOAD_BYTES,
  REQUIRED_DOCUMENT_TYPES,
  type DocumentType,
  type StoredDocument,
} from '@karoo/shared';
import { clsx } from 'clsx';
import { CheckCircle2, Download, Eye, FileText, FolderCheck, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { FileDropZone, UploadProgress } from '@/components/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { checkChosenFile, type FileRule } from '@/lib/file-checks';
import { formatDate, formatFileSize } from '@/lib/format';
import { openDocument, saveDocument } from '../api/download-document';
import { useVerificationStatus } from '../api/get-verification-status';
import { useUploadDocument } from '../api/upload-document';

export const ACCEPTED_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];
const ACCEPT_ATTRIBUTE = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';
const PROGRESS_STEP_MS = 200;

const GUIDELINES = [
  'Documents must be clear and readable',
  'All personal information must be visible',
  'Documents must be current and not expired',
  'File size must not exceed 10MB',
  'Accepted formats: PDF, JPG, PNG',
];

const DESCRIPTIONS: Record<DocumentType, string> = {
  id_document: 'Your South African ID (book or card) or passport.',
  driver_license: 'Front of a valid driver’s licence card.',
  proof_of_address: 'A utility bill or bank statement from the last 3 months.',
  bank_confirmation_letter: 'A stamped letter from your bank confirming the account.',
};

/** Each file is checked by content the moment it is chosen (lib/file-checks.ts); the server checks again. */
const DOCUMENT_RULE: FileRule = { types: ACCEPTED_TYPES, maxBytes: MAX_UPLOAD_BYTES, noun: 'file' };

interface SlotProps {
  type: DocumentType;
  document: StoredDocument | null;
  username: string;
  locked: boolean;
  busy: boolean;
  progress: number | null;
  /** Why the last file chosen for this slot was refused, naming it. */
  refusal: string | null;
  onFile: (type: DocumentType, file: File) => void;
}

function DocumentSlot({ type, document, username, locked, busy, progress, refusal, onFile }: SlotProps) {
  const notify = useNotification();
  const label = DOCUMENT_LABELS[type];
  const inputId = `document-${type}`;
  const titleId = `document-${type}-title`;
  const uploaded = !!document;
  const required = REQUIRED_DOCUMENT_TYPES.includes(type);
  const canUpload = !(locked && uploaded);

  const view = (mode: 'open' | 'save') => {
    const action = mode === 'open' ? openDocument(username, type) : saveDocument(username, type);
    action.catch((error: unknown) =>
      notify.error('Download Failed', messageOf(error, 'Failed to download document')),
    );
  };

  return (
    <div
      data-testid={`slot-${label}`}
      className={clsx(
        'flex flex-col rounded-xl border p-4 transition-colors',
        uploaded ? 'border-emerald-200 bg-emerald-50/40' : 'border-stone-200 bg-white',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-sm font-semibold text-stone-900">
            {label}
          </h3>
          <p className="mt-0.5 text-xs text-stone-500">
            {required ? 'Required' : 'Optional'} · {DESCRIPTIONS[type]}
          </p>
        </div>
        {uploaded ? (
          <Badge tone="success" icon={<CheckCircle2 className="size-3" aria-hidden="true" />}>
            Uploaded
          </Badge>
        ) : (
          <Badge tone="neutral">Not Uploaded</Badge>
        )}
      </div>

      {document ? (
        <div className="mt-3 rounded-lg bg-white px-3 py-2.5 ring-1 ring-stone-200">
          <div className="flex min-w-0 items-center gap-2.5">
            <FileText className="size-4 shrink-0 text-stone-400" aria-hidden="true" />
            <div className="min-w-0 flex-1 text-xs">
              <p className="truncate font-medium text-stone-800" title={document.originalName}>
                {document.originalName}
              </p>
              <p className="text-stone-500">
                {formatFileSize(document.size)} · uploaded {formatDate(document.uploaded_at)}
              </p>
            </div>
          </div>
          <div className="mt-2 flex gap-2 border-t border-stone-100 pt-2">
            <Button size="sm" variant="ghost" icon={<Eye className="size-4" aria-hidden="true" />} onClick={() => view('open')} aria-describedby={titleId}>
              View
            </Button>
            <Button
              size="sm"
              variant="ghost"
              icon={<Download className="size-4" aria-hidden="true" />}
              onClick={() => view('save')}
              aria-describedby={titleId}
            >
              Download
            </Button>
          </div>
        </div>
      ) : null}

      {canUpload ? (
        <FileDropZone
          inputId={inputId}
          accept={ACCEPT_ATTRIBUTE}
          label={uploaded ? 'Replace document' : 'Upload document'}
          hint="PDF, JPG, PNG (max 10MB)"
          extraHint="Drop a file here or click to choose"
          disabled={busy}
          describedBy={titleId}
          testId={`upload-${label}`}
          error={refusal}
          onFile={(file) => onFile(type, file)}
        />
      ) : (
        <p className="mt-3 text-xs text-stone-500">Verified documents can no longer be replaced. Contact support if this one has changed.</p>
      )}

      <UploadProgress progress={progress} />
    </div>
  );
}

export function DocumentUploadPanel() {
  const { user, refreshUser } = useAuth();
  const notify = useNotification();
  const username = user?.username ?? '';
  const status = useVerificationStatus(user?.username, { version: user?.updated_at });
  const upload = useUploadDocument(username);
  const [active, setActive] = useState<{ type: DocumentType; progress: number } | null>(null);
  const [refusal, setRefusal] = useState<{ type: DocumentType; message: string } | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  // The finished bar's short stay on screen: cleared with the panel, so it never sets state after.
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
      if (settle.current) clearTimeout(settle.current);
    },
    [],
  );

  if (!user) return null;
  const locked = user.verification_status === 'verified';

  const handleFile = async (type: DocumentType, file: File) => {
    const problem = await checkChosenFile(file, DOCUMENT_RULE);
    setRefusal(problem ? { type, message: problem } : null);
    if (problem) return;
    // The request gives no progress events; the bar moves in 10% steps to 90% and completes
    // when the server answers.
    setActive({ type, progress: 0 });
    timer.current = setInterval(() => {
      setActive((current) => (current && current.progress < 90 ? { ...current, progress: current.progress + 10 } : current));
    }, PROGRESS_STEP_MS);
    try {
      await upload.mutateAsync({ type, file });
      if (timer.current) clearInterval(timer.current);
      setActive({ type, progress: 100 });
      notify.success('Document Uploaded', `Your ${DOCUMENT_LABELS[type]} was uploaded successfully.`);
      // The server may have moved the account to pending_verification.
      refreshUser().catch(() => undefined);
      settle.current = setTimeout(() => setActive((current) => (current?.type === type ? null : current)), 800);
    } catch (error) {
      if (timer.current) clearInterval(timer.current);
      setActive(null);
      notify.error('Upload Failed', messageOf(error, 'Failed to upload document'));
    }
  };

  const documents = status.data?.documents;
  const uploadedCount = documents ? DOCUMENT_TYPES.filter((type) => documents[type]).length : 0;

  return (
    <Card aria-labelledby="verification-documents">
      <CardHeader
        title={<span id="verification-documents">Verification Documents</span>}
        description={
          documents
            ? `${uploadedCount} of ${DOCUMENT_TYPES.length} uploaded. Kept private: only you and Karoo administrators can open them.`
            : 'Kept private: only you and Karoo administrators can open them.'
        }
        icon={<FolderCheck className="size-5" aria-hidden="true" />}
        actions={
          <Button
            size="sm"
            variant="secondary"
            icon={<RefreshCw className={clsx('size-4', status.isFetching && 'animate-spin')} aria-hidden="true" />}
            onClick={() => void status.refetch()}
            disabled={status.isFetching}
          >
            Refresh
          </Button>
        }
      />
      <CardBody className="space-y-5">
        {status.isPending ? (
          <div className="flex items-center gap-2 text-sm text-stone-500" role="status">
            <Spinner /> Loading documents...
          </div>
        ) : status.isError ? (
          <Alert tone="danger" title="Documents could not be loaded">
            {isApiError(status.error) ? status.error.message : 'Please try again.'}{' '}
            <button type="button" className="font-semibold underline underline-offset-2" onClick={() => void status.refetch()}>
              Try again
            </button>
          </Alert>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            {DOCUMENT_TYPES.map((type) => (
              <DocumentSlot
                key={type}
                type={type}
                document={status.data.documents[type]}
                username={username}
                locked={locked}
                busy={active !== null && active.progress < 100}
                progress={active?.type === type ? active.progress : null}
                refusal={refusal?.type === type ? refusal.message : null}
                onFile={(t, f) => void handleFile(t, f)}
              />
            ))}
          </div>
        )}

        <div className="rounded-xl bg-stone-50 p-4">
          <h3 className="text-sm font-semibold text-stone-900">Document guidelines</h3>
          <ul className="mt-2 grid gap-1.5 text-sm text-stone-600 sm:grid-cols-2">
            {GUIDELINES.map((line) => (
              <li key={line} className="flex gap-2">
                <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                {line}
              </li>
            ))}
          </ul>
        </div>
      </CardBody>
    </Card>
  );
}
