// View mode of the profile: Personal Information and Bank Details, each field with its badge and,
// when missing, the hint saying why it is needed.
import { isMissingValue, PROFILE_FIELDS, profileFieldValue, type ProfileFieldKey, type User } from '@karoo/shared';
import { Landmark, ShieldCheck, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { formatDate } from '@/lib/format';
import { FieldStatusBadge } from './field-status-badge';

const HINTS = Object.fromEntries(PROFILE_FIELDS.map((field) => [field.key, field.hint])) as Record<ProfileFieldKey, string>;

interface RowProps {
  label: string;
  value: ReactNode;
  field?: ProfileFieldKey;
  user?: User;
}

function DetailRow({ label, value, field, user }: RowProps) {
  const raw = field && user ? profileFieldValue(user, field) : undefined;
  const missing = field ? isMissingValue(raw) : false;
  return (
    <div className="grid gap-1 py-3.5 sm:grid-cols-[11rem_1fr_auto] sm:items-start sm:gap-4">
      <dt className="text-sm font-medium text-stone-500">{label}</dt>
      <dd className="min-w-0 text-[15px] text-stone-900">
        {field ? (missing ? <span className="text-stone-500 italic">Not provided</span> : <span className="break-words">{raw}</span>) : value}
        {field && missing ? <p className="mt-1 text-xs text-amber-700">{HINTS[field]}</p> : null}
      </dd>
      <dd className="sm:justify-self-end">{field ? <FieldStatusBadge missing={missing} /> : null}</dd>
    </div>
  );
}

export function ProfileDetails({ user }: { user: User }) {
  const verified = user.verification_status === 'verified';
  return (
    <>
      <Card aria-labelledby="personal-information">
        <CardHeader
          title={<span id="personal-information">Personal Information</span>}
          description="Used to confirm who you are and to reach you about your trips."
          icon={<UserRound className="size-5" aria-hidden="true" />}
        />
        <CardBody className="py-1">
          <dl className="divide-y divide-stone-100">
            <DetailRow label="Full Name" field="full_name" user={user} value={null} />
            <DetailRow
              label="Username"
              value={
                <span>
                  <span className="font-medium">@{user.username}</span>
                  <span className="ml-2 text-xs text-stone-500">cannot be changed</span>
                </span>
              }
            />
            <DetailRow label="Email" field="email" user={user} value={null} />
            <DetailRow label="Phone Number" field="phone_number" user={user} value={null} />
            <DetailRow label="Address" field="address" user={user} value={null} />
            <DetailRow label="ID Number" field="id_number" user={user} value={null} />
            <DetailRow
              label="Driving Licence"
              value={user.driver_licence_number ? <span className="break-words">{user.driver_licence_number}</span> : <span className="text-stone-500 italic">Not given (optional)</span>}
            />
            <DetailRow
              label="Licence First Issued"
              value={user.driver_licence_issued_on ? formatDate(user.driver_licence_issued_on, 'Unknown') : <span className="text-stone-500 italic">Not given (optional)</span>}
            />
            <DetailRow label="Member Since" value={formatDate(user.created_at, 'Unknown')} />
          </dl>
        </CardBody>
      </Card>

      <Card aria-labelledby="bank-details">
        <CardHeader
          title={<span id="bank-details">Bank Details</span>}
          description={
            verified
              ? 'Bank details cannot be changed for security and compliance reasons.'
              : 'Where your earnings are paid as a host. Kept private: only you and Karoo administrators can see them.'
          }
          icon={<Landmark className="size-5" aria-hidden="true" />}
          actions={
            verified ? (
              <Badge tone="success" icon={<ShieldCheck className="size-3.5" aria-hidden="true" />}>
                Verified
              </Badge>
            ) : null
          }
        />
        <CardBody className="py-1">
          <dl className="divide-y divide-stone-100">
            <DetailRow label="Account Number" field="account_number" user={user} value={null} />
            <DetailRow label="Bank Code" field="bank_code" user={user} value={null} />
          </dl>
        </CardBody>
      </Card>
    </>
  );
}
