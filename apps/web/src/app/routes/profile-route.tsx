// The profile screen with the documents panel of the verification feature (features do not import
// each other: the route composes them). Loaded on demand with the forms it needs.
import { ProfilePage } from '@/features/profile/components/profile-page';
import { DocumentUploadPanel } from '@/features/verification/components/document-upload-panel';

export function ProfileRoute() {
  return <ProfilePage documentsPanel={<DocumentUploadPanel />} />;
}
