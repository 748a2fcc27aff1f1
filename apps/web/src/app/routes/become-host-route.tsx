// The list-a-car wizard. Its documents step shows the verification documents panel and the new
// car's registration document panel, composed here so the features do not import each other.
import type { Car } from '@karoo/shared';
import { RegistrationDocumentPanel } from '@/features/host/components/registration-document-panel';
import { BecomeHostPage } from '@/features/list-car/components/become-host-page';
import { DocumentUploadPanel } from '@/features/verification/components/document-upload-panel';

const renderRegistrationPanel = (car: Car) => <RegistrationDocumentPanel car={car} />;

export function BecomeHostRoute() {
  return <BecomeHostPage documentsPanel={<DocumentUploadPanel />} renderRegistrationPanel={renderRegistrationPanel} />;
}
