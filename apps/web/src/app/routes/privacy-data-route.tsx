// /profile/privacy: the Privacy and data page (issue 24, decision 049). Each panel comes from the
// feature that owns it and is composed here, in the order the page shows them; a new panel is one
// entry of SECTIONS (its id is the page's anchor, its title the contents' entry).
import { PrivacyDataLayout, type PrivacySection } from '@/features/profile/components/privacy/privacy-data-layout';

export function PrivacyDataRoute() {
  const sections: PrivacySection[] = [];
  return <PrivacyDataLayout sections={sections} />;
}
