// Edit mode of the profile. Validates with the shared profileFormSchema; once verified, only the
// phone number stays editable (the server refuses the rest with 403 anyway).
import { zodResolver } from '@hookform/resolvers/zod';
import { profileFormSchema, type ProfileForm, type UpdateUserBody, type User } from '@karoo/shared';
import { Landmark, Lock, ShieldCheck, UserRound } from 'lucide-react';
import { useMemo } from 'react';
import { useForm, type Path, type Resolver } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useUpdateProfile } from '../api/update-profile';
import { profileFormValues } from '../utils/profile-values';

export const PROFILE_SAVED = 'Profile updated successfully!';
export const PROFILE_FAILED = 'Failed to update profile. Please try again.';

const FIELD_NAMES: Path<ProfileForm>[] = [
  'full_name',
  'email',
  'phone_number',
  'address',
  'id_number',
  'driver_licence_number',
  'driver_licence_issued_on',
  'bank_account.account_number',
  'bank_account.bank_code',
];

// Verified users submit their phone number (and a driving licence number or issue date they have
// not given yet) only, so only those are validated; the other fields are read-only and may hold
// values from before today's formats.
const phoneOnlyResolver = zodResolver(profileFormSchema.pick({ phone_number: true, driver_licence_number: true, driver_licence_issued_on: true })) as unknown as Resolver<ProfileForm>;
const fullResolver = zodResolver(profileFormSchema) as unknown as Resolver<ProfileForm>;

export interface ProfileFormProps {
  user: User;
  onDone: () => void;
}

export function ProfileFormCards({ user, onDone }: ProfileFormProps) {
  const verified = user.verification_status === 'verified';
  const notify = useNotification();
  const { updateUser } = useAuth();
  const mutation = useUpdateProfile(user.username);
  const defaultValues = useMemo(() => profileFormValues(user), [user]);

  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ProfileForm>({
    resolver: verified ? phoneOnlyResolver : fullResolver,
    defaultValues,
    // Errors are shown after Save and cleared as soon as the field is edited.
    reValidateMode: 'onSubmit',
  });

  const field = (name: Path<ProfileForm>) => register(name, { onChange: () => clearErrors(name) });

  const onSubmit = handleSubmit(async (values) => {
    // An empty licence number is none; once given, a verified member's is locked (the server says so too).
    const { driver_licence_number: licence, driver_licence_issued_on: issuedOn, ...rest } = values;
    const addLicence = {
      ...(licence && (!verified || !user.driver_licence_number) ? { driver_licence_number: licence } : {}),
      ...(issuedOn && (!verified || !user.driver_licence_issued_on) ? { driver_licence_issued_on: issuedOn } : {}),
    };
    const body: UpdateUserBody = verified ? { phone_number: values.phone_number, ...addLicence } : { ...rest, ...addLicence };
    try {
      const result = await mutation.mutateAsync(body);
      updateUser(result.data);
      notify.success(PROFILE_SAVED);
      onDone();
    } catch (error) {
      if (isApiError(error) && error.isClientError) {
        for (const [name, message] of Object.entries(error.errors)) {
          if ((FIELD_NAMES as string[]).includes(name)) setError(name as Path<ProfileForm>, { type: 'server', message });
        }
        const message = messageOf(error, PROFILE_FAILED);
        notify.error(PROFILE_FAILED, message !== PROFILE_FAILED ? message : undefined);
      } else {
        notify.error(PROFILE_FAILED);
      }
    }
  });

  const lockHint = verified ? (
    <span className="inline-flex items-center gap-1">
      <Lock className="size-3" aria-hidden="true" /> Locked after verification
    </span>
  ) : undefined;
  const saving = isSubmitting || mutation.isPending;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-label="Edit profile">
      <Card>
        <CardHeader
          title="Personal Information"
          description={
            verified
              ? 'Your identity is verified: only your phone number can be changed here. Contact support if something else is wrong.'
              : 'Please use your details exactly as they appear on your ID document.'
          }
          icon={<UserRound className="size-5" aria-hidden="true" />}
        />
        <CardBody className="grid gap-5 sm:grid-cols-2">
          <Input
            label="Full Name"
            autoComplete="name"
            readOnly={verified}
            hint={lockHint}
            error={errors.full_name?.message}
            {...field('full_name')}
          />
          <div>
            <p className="mb-1.5 text-sm font-medium text-stone-700">Username</p>
            <p className="flex h-[46px] items-center rounded-xl border border-stone-200 bg-stone-100 px-3.5 text-[15px] text-stone-600">
              @{user.username}
            </p>
            <p className="mt-1.5 text-xs text-stone-500">Usernames cannot be changed.</p>
          </div>
          <Input
            label="Email"
            type="email"
            autoComplete="email"
            readOnly={verified}
            hint={lockHint}
            error={errors.email?.message}
            {...field('email')}
          />
          <Input
            label="Phone Number"
            type="tel"
            autoComplete="tel"
            placeholder="+27 82 123 4567"
            hint="Used for booking confirmations."
            error={errors.phone_number?.message}
            {...field('phone_number')}
          />
          <Input
            label="Address"
            autoComplete="street-address"
            readOnly={verified}
            hint={lockHint}
            containerClassName="sm:col-span-2"
            error={errors.address?.message}
            {...field('address')}
          />
          <Input
            label="ID Number"
            inputMode="text"
            autoComplete="off"
            readOnly={verified}
            hint={lockHint ?? 'South African ID number or passport number.'}
            error={errors.id_number?.message}
            {...field('id_number')}
          />
          <Input
            label="Driving Licence Number"
            inputMode="text"
            autoComplete="off"
            readOnly={verified && !!user.driver_licence_number}
            hint={
              verified && user.driver_licence_number
                ? lockHint
                : 'Optional. On the front of your card. Used only if a traffic fine from your trip is nominated to you, as the law asks.'
            }
            error={errors.driver_licence_number?.message}
            {...field('driver_licence_number')}
          />
          <Input
            label="Licence First Issued"
            type="date"
            autoComplete="off"
            readOnly={verified && !!user.driver_licence_issued_on}
            hint={
              verified && user.driver_licence_issued_on
                ? lockHint
                : 'Optional. The first issue date on your card. Some hosts confirm requests at once for drivers who have held a licence a few years.'
            }
            error={errors.driver_licence_issued_on?.message}
            {...field('driver_licence_issued_on')}
          />
        </CardBody>
      </Card>

      <Card>
        <CardHeader
          title="Bank Details"
          description={
            verified
              ? 'Bank details cannot be changed for security and compliance reasons.'
              : 'Where your earnings are paid as a host.'
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
        <CardBody className="grid gap-5 sm:grid-cols-2">
          <Input
            label="Account Number"
            inputMode="numeric"
            autoComplete="off"
            readOnly={verified}
            hint={lockHint}
            error={errors.bank_account?.account_number?.message}
            {...field('bank_account.account_number')}
          />
          <Input
            label="Bank Code"
            inputMode="numeric"
            autoComplete="off"
            readOnly={verified}
            hint={lockHint ?? 'Your bank’s universal branch code, e.g. 250655.'}
            error={errors.bank_account?.bank_code?.message}
            {...field('bank_account.bank_code')}
          />
        </CardBody>
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button
          variant="secondary"
          size="lg"
          disabled={saving}
          onClick={() => {
            reset(defaultValues);
            onDone();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" size="lg" loading={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
