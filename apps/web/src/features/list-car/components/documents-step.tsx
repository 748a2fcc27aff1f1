// Wizard step 3, Documents: the new car is listed and pending verification; the host uploads
// their verification documents (ID document, driver's license and bank confirmation letter
// required, proof of address optional) and the car's registration document. Both panels come from
// their own features through the router, so this feature does not depend on them.
import { carName, type Car } from '@karoo/shared';
import { CheckCircle2, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';

export interface DocumentsStepProps {
  car: Car;
  documentsPanel?: ReactNode;
  registrationPanel?: ReactNode;
}

export function DocumentsStep({ car, documentsPanel, registrationPanel }: DocumentsStepProps) {
  const photo = car.images[0];
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4 sm:flex-row sm:items-center">
        {photo ? (
          <img src={photo} alt={carName(car)} className="h-20 w-full shrink-0 rounded-xl object-cover sm:w-32" />
        ) : (
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-emerald-100 text-emerald-700">
            <CheckCircle2 className="size-6" aria-hidden="true" />
          </span>
        )}
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-semibold text-stone-900">{carName(car)} is listed</p>
            <Badge tone="warning" icon={<Clock className="size-3" aria-hidden="true" />}>
              Pending verification
            </Badge>
          </div>
          <p className="mt-1 text-sm leading-6 text-stone-600">
            Our team checks every new car before renters can book it. Upload your documents now so we can verify you and your car faster.
          </p>
        </div>
      </div>

      {registrationPanel}

      <div className="space-y-3">
        <p className="text-sm text-stone-600">
          <span className="font-semibold text-stone-900">Your documents.</span> Required: ID document, driver&apos;s license and bank confirmation
          letter. Proof of address is optional. Documents you have already uploaded are kept.
        </p>
        {documentsPanel}
      </div>
    </div>
  );
}
