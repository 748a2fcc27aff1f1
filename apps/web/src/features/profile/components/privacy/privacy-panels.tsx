// The Privacy and data page's own panels (issue 24, decision 049): what Karoo holds and who viewed
// the documents, the data download, corrections, the marketing choice, and the versions of the terms
// accepted. Each reads the privacy API; the route composes them with the account deletion panel.
import {
  CORRECTION_FIELD_LABELS,
  CORRECTION_FIELDS,
  correctionRequestBodySchema,
  DATA_EXPORT_VALID_HOURS,
  MARKETING_CONSENT,
  type CorrectionField,
  type DataExport,
  type PrivacyOverview,
} from '@karoo/shared';
import { CheckCircle2, Clock, Download, Eye, FileArchive, Mail, PencilLine, ScrollText } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatDate, formatDateTime, formatFileSize } from '@/lib/format';
import { PATHS } from '@/lib/routes';
import {
  downloadDataExport,
  useCorrectionRequests,
  useDataExports,
  usePrivacyOverview,
  useRequestCorrection,
  useRequestDataExport,
  useSetMarketingChoice,
} from '../../api/privacy';

function Loading({ label }: { label: string }) {
  return (
    <div className="flex items-center gap-2 py-6 text-sm text-stone-500" role="status">
      <Spinner className="size-4 text-brand-600" /> {label}
    </div>
  );
}

function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Alert tone="warning" title={`We couldn’t load ${what}`}>
      <button type="button" className="font-semibold underline underline-offset-2" onClick={onRetry}>
        Try again
      </button>
    </Alert>
  );
}

// ---- What we hold ----
export function HeldDataPanel() {
  const overview = usePrivacyOverview();
  return (
    <Card>
      <CardHeader
        title="What we hold about you"
        description="Every kind of personal information Karoo keeps about you, where it came from and why we keep it. The numbers are your records today."
        icon={<ScrollText className="size-5" aria-hidden="true" />}
      />
      <CardBody>
        {overview.isPending ? <Loading label="Loading what we hold..." /> : null}
        {overview.isError ? <LoadError what="what we hold" onRetry={() => void overview.refetch()} /> : null}
        {overview.data ? <HeldList overview={overview.data} /> : null}
      </CardBody>
    </Card>
  );
}

function HeldList({ overview }: { overview: PrivacyOverview }) {
  return (
    <ul className="divide-y divide-stone-100" aria-label="Categories of personal information">
      {overview.categories.map((category) => (
        <li key={category.key} className="grid gap-1 py-4 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-4">
          <div className="min-w-0">
            <h3 className="text-sm font-semibold text-stone-900">{category.label}</h3>
            <p className="mt-0.5 text-sm text-stone-600">{category.what}</p>
            <dl className="mt-2 grid gap-1 text-xs text-stone-500 sm:grid-cols-2 sm:gap-3">
              <div>
                <dt className="inline font-semibold text-stone-600">From: </dt>
                <dd className="inline">{category.source}</dd>
              </div>
              <div>
                <dt className="inline font-semibold text-stone-600">Why: </dt>
                <dd className="inline">{category.purpose}</dd>
              </div>
            </dl>
          </div>
          <p className="text-sm text-stone-700 sm:text-right" data-testid={`held-count-${category.key}`}>
            <span className="text-lg font-bold text-stone-900">{category.count}</span> {category.count === 1 ? 'record' : 'records'}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function DocumentViewsPanel() {
  const overview = usePrivacyOverview();
  const views = overview.data?.document_views ?? [];
  return (
    <Card>
      <CardHeader
        title="Who viewed your documents"
        description="Only our verification team can open your identity documents. Every time they do, it is recorded, and shown here."
        icon={<Eye className="size-5" aria-hidden="true" />}
      />
      <CardBody>
        {overview.isPending ? <Loading label="Loading..." /> : null}
        {overview.data && views.length === 0 ? <p className="text-sm text-stone-600">Nobody at Karoo has opened your documents.</p> : null}
        {views.length > 0 ? (
          <ul className="divide-y divide-stone-100" aria-label="Views of your documents">
            {views.map((view, index) => (
              <li key={`${view.viewed_at}-${index}`} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
                <span className="text-stone-900">
                  <span className="font-semibold">{view.role}</span> opened your {view.document.toLowerCase()}
                </span>
                <time dateTime={view.viewed_at} className="text-stone-500">
                  {formatDateTime(view.viewed_at)}
                </time>
              </li>
            ))}
          </ul>
        ) : null}
      </CardBody>
    </Card>
  );
}

// ---- Download everything ----
const EXPORT_TONE: Record<DataExport['status'], BadgeTone> = { preparing: 'info', ready: 'success', expired: 'neutral', failed: 'danger' };
const EXPORT_LABEL: Record<DataExport['status'], string> = { preparing: 'Preparing', ready: 'Ready', expired: 'Expired', failed: 'Failed' };

export function DataDownloadPanel() {
  const exports = useDataExports();
  const request = useRequestDataExport();
  const notify = useNotification();
  const [downloading, setDownloading] = useState(false);
  const latest = exports.data?.[0];

  async function ask() {
    try {
      await request.mutateAsync();
      notify.success('We are preparing your data', 'We will email you when it is ready to download.');
    } catch (error) {
      notify.error('Could not start the download', messageOf(error, 'Please try again.'));
    }
  }

  async function download(id: string) {
    setDownloading(true);
    try {
      await downloadDataExport(id);
    } catch (error) {
      notify.error('Could not download your data', messageOf(error, 'Please try again.'));
      void exports.refetch();
    } finally {
      setDownloading(false);
    }
  }

  const canAsk = !latest || latest.status !== 'preparing';
  return (
    <Card>
      <CardHeader
        title="Download your data"
        description={`A ZIP file with all your records as JSON and every file you uploaded (documents, car photos). We prepare it in the background and email you; only you can download it, for ${DATA_EXPORT_VALID_HOURS} hours.`}
        icon={<FileArchive className="size-5" aria-hidden="true" />}
      />
      <CardBody className="space-y-4">
        {exports.isPending ? <Loading label="Loading your downloads..." /> : null}
        {exports.isError ? <LoadError what="your downloads" onRetry={() => void exports.refetch()} /> : null}
        {latest ? (
          <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-stone-50 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="data-export">
            <div className="min-w-0 text-sm">
              <p className="flex items-center gap-2 font-semibold text-stone-900">
                <Badge tone={EXPORT_TONE[latest.status]}>{EXPORT_LABEL[latest.status]}</Badge>
                Requested {formatDateTime(latest.requested_at)}
              </p>
              <p className="mt-1 text-stone-600">
                {latest.status === 'preparing' ? (
                  <span className="inline-flex items-center gap-1.5">
                    <Spinner className="size-3.5 text-brand-600" /> We are collecting your records and files. This page updates by itself.
                  </span>
                ) : null}
                {latest.status === 'ready' ? (
                  <>
                    Ready until <strong>{formatDateTime(latest.expires_at)}</strong>
                    {latest.size_bytes ? ` · ${formatFileSize(latest.size_bytes)}` : ''}
                  </>
                ) : null}
                {latest.status === 'expired' ? <>This download expired on {formatDateTime(latest.expires_at)} and its file was deleted. Ask for a new one.</> : null}
                {latest.status === 'failed' ? <>We could not prepare it. Please ask again; if it fails again, contact us.</> : null}
              </p>
            </div>
            {latest.status === 'ready' ? (
              <Button icon={<Download className="size-4" aria-hidden="true" />} loading={downloading} onClick={() => void download(latest.id)}>
                Download ZIP
              </Button>
            ) : null}
          </div>
        ) : null}
        {canAsk ? (
          <Button variant={latest?.status === 'ready' ? 'secondary' : 'primary'} loading={request.isPending} onClick={() => void ask()}>
            {latest ? 'Ask for a new copy' : 'Prepare my data'}
          </Button>
        ) : null}
      </CardBody>
    </Card>
  );
}

// ---- Correct ----
export function CorrectionPanel() {
  const { user } = useAuth();
  const requests = useCorrectionRequests();
  const isVerified = user?.verification_status === 'verified';
  return (
    <Card>
      <CardHeader
        title="Correct your details"
        description="You can change your phone number, and while your account is not yet verified every other detail, on your profile. Once verified, your name, email, address, ID number and bank details are checked by our team: ask for a correction here."
        icon={<PencilLine className="size-5" aria-hidden="true" />}
      />
      <CardBody className="space-y-5">
        <p className="text-sm">
          <Link to={PATHS.profile} className="font-semibold text-brand-700 underline underline-offset-2">
            Edit your profile
          </Link>{' '}
          <span className="text-stone-600">to change what you can change yourself.</span>
        </p>
        {isVerified ? <CorrectionForm /> : null}
        {requests.data && requests.data.length > 0 ? (
          <div>
            <h3 className="text-sm font-semibold text-stone-900">Your correction requests</h3>
            <ul className="mt-2 space-y-2" aria-label="Your correction requests">
              {requests.data.map((request) => (
                <li key={request.id} className="rounded-xl border border-stone-200 p-3 text-sm">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-stone-900">{CORRECTION_FIELD_LABELS[request.field]}</span>
                    <Badge tone={request.status === 'approved' ? 'success' : request.status === 'declined' ? 'danger' : 'info'}>
                      {request.status === 'open' ? 'Waiting for our team' : request.status === 'approved' ? 'Corrected' : 'Declined'}
                    </Badge>
                    <span className="text-stone-500">{formatDate(request.created_at)}</span>
                  </p>
                  <p className="mt-1 break-words text-stone-600">
                    {request.current_value ?? '(empty)'} → <strong className="text-stone-900">{request.proposed_value}</strong>
                  </p>
                  {request.decision_note ? <p className="mt-1 text-stone-600">Our note: {request.decision_note}</p> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}

function CorrectionForm() {
  const request = useRequestCorrection();
  const notify = useNotification();
  const fieldId = useId();
  const reasonId = useId();
  const [field, setField] = useState<CorrectionField>('full_name');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = correctionRequestBodySchema.safeParse({ field, proposed_value: value, reason });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    try {
      const result = await request.mutateAsync(parsed.data);
      notify.success('Correction requested', result.message ?? 'We will tell you when it is answered.');
      setValue('');
      setReason('');
    } catch (error) {
      const message = messageOf(error, 'Please try again.');
      setErrors({ form: message });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-xl border border-stone-200 p-4" aria-label="Request a correction">
      <h3 className="text-sm font-semibold text-stone-900">Request a correction</h3>
      <div>
        <label htmlFor={fieldId} className="mb-1.5 block text-sm font-medium text-stone-700">
          Detail to correct
        </label>
        <select
          id={fieldId}
          value={field}
          onChange={(e) => setField(e.target.value as CorrectionField)}
          className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
        >
          {CORRECTION_FIELDS.map((key) => (
            <option key={key} value={key}>
              {CORRECTION_FIELD_LABELS[key]}
            </option>
          ))}
        </select>
      </div>
      <Input label="The correct value" value={value} onChange={(e) => setValue(e.target.value)} error={errors.proposed_value} maxLength={300} />
      <div>
        <label htmlFor={reasonId} className="mb-1.5 block text-sm font-medium text-stone-700">
          Why it is wrong
        </label>
        <textarea
          id={reasonId}
          rows={3}
          maxLength={1000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={!!errors.reason}
          aria-describedby={errors.reason ? `${reasonId}-error` : undefined}
          className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
        />
        {errors.reason ? (
          <p id={`${reasonId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
            {errors.reason}
          </p>
        ) : null}
      </div>
      {errors.form ? (
        <Alert tone="danger" role="alert">
          {errors.form}
        </Alert>
      ) : null}
      <Button type="submit" loading={request.isPending}>
        Send to our team
      </Button>
    </form>
  );
}

// ---- Marketing ----
export function MarketingPanel() {
  const overview = usePrivacyOverview();
  const setChoice = useSetMarketingChoice();
  const notify = useNotification();
  const marketing = overview.data?.marketing;
  const [checked, setChecked] = useState<boolean | null>(null);
  const value = checked ?? marketing?.granted ?? false;
  const changed = marketing !== undefined && value !== marketing.granted;

  async function save() {
    try {
      const result = await setChoice.mutateAsync(value);
      setChecked(null);
      notify.success('Choice saved', result.message ?? '');
    } catch (error) {
      notify.error('Could not save your choice', messageOf(error, 'Please try again.'));
    }
  }

  return (
    <Card>
      <CardHeader
        title="Marketing email"
        description="Emails about your bookings, payments and account always reach you. News and offers only if you say yes, and you can stop them at any time: every such email has a one-click unsubscribe link."
        icon={<Mail className="size-5" aria-hidden="true" />}
      />
      <CardBody className="space-y-4">
        {overview.isPending ? <Loading label="Loading your choice..." /> : null}
        {marketing ? (
          <>
            <Checkbox label={MARKETING_CONSENT.wording} checked={value} onChange={(e) => setChecked(e.target.checked)} />
            <p className="text-xs text-stone-500" data-testid="marketing-recorded">
              {marketing.recorded_at
                ? `${marketing.granted ? 'You said yes' : 'You said no'} on ${formatDateTime(marketing.recorded_at)}.`
                : 'You have not chosen yet, so we send you no marketing email.'}
            </p>
            <Button variant={changed ? 'primary' : 'secondary'} disabled={!changed} loading={setChoice.isPending} onClick={() => void save()}>
              Save choice
            </Button>
          </>
        ) : null}
      </CardBody>
    </Card>
  );
}

// ---- Terms ----
export function PoliciesPanel() {
  const overview = usePrivacyOverview();
  return (
    <Card>
      <CardHeader
        title="Terms and privacy notice"
        description="The versions you accepted and when. When we change them, we ask you to read and accept the new version at your next sign-in."
        icon={<CheckCircle2 className="size-5" aria-hidden="true" />}
      />
      <CardBody>
        {overview.data ? (
          <ul className="divide-y divide-stone-100">
            {overview.data.policies.map((policy) => (
              <li key={policy.kind} className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm first:pt-0 last:pb-0">
                <span>
                  <Link to={policy.kind === 'terms' ? PATHS.terms : PATHS.privacy} className="font-semibold text-brand-700 underline underline-offset-2">
                    {policy.name}
                  </Link>{' '}
                  <span className="text-stone-500">version {policy.current_version}</span>
                </span>
                <PolicyStatus accepted={policy.accepted_at} needs={policy.needs_acceptance} />
              </li>
            ))}
          </ul>
        ) : (
          <Loading label="Loading..." />
        )}
      </CardBody>
    </Card>
  );
}

function PolicyStatus({ accepted, needs }: { accepted: string | null; needs: boolean }): ReactNode {
  if (needs) {
    return (
      <Badge tone="warning">
        <Clock className="mr-1 inline size-3.5" aria-hidden="true" />
        Not accepted yet
      </Badge>
    );
  }
  return <span className="text-stone-600">Accepted {formatDateTime(accepted)}</span>;
}
