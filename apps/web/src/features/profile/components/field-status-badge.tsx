import { CheckCircle2, CircleAlert } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/** Required (missing) or Complete, for one profile field. */
export function FieldStatusBadge({ missing }: { missing: boolean }) {
  return missing ? (
    <Badge tone="warning" icon={<CircleAlert className="size-3" aria-hidden="true" />}>
      Required
    </Badge>
  ) : (
    <Badge tone="success" icon={<CheckCircle2 className="size-3" aria-hidden="true" />}>
      Complete
    </Badge>
  );
}
