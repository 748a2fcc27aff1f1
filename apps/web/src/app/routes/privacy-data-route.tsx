// /profile/privacy: the Privacy and data page (issue 24, decision 049). Each panel comes from the
// feature that owns it and is composed here, in the order the page shows them; a new panel is one
// entry of the sections (its id is the page's anchor, its title the contents' entry).
import { DeleteAccountPanel } from '@/features/profile/components/privacy/delete-account-panel';
import { PrivacyDataLayout, type PrivacySection } from '@/features/profile/components/privacy/privacy-data-layout';
import {
  CorrectionPanel,
  DataDownloadPanel,
  DocumentViewsPanel,
  HeldDataPanel,
  MarketingPanel,
  PoliciesPanel,
} from '@/features/profile/components/privacy/privacy-panels';

export function PrivacyDataRoute() {
  const sections: PrivacySection[] = [
    { id: 'held', title: 'What we hold', content: <HeldDataPanel /> },
    { id: 'views', title: 'Who viewed your documents', content: <DocumentViewsPanel /> },
    { id: 'download', title: 'Download your data', content: <DataDownloadPanel /> },
    { id: 'correct', title: 'Correct your details', content: <CorrectionPanel /> },
    { id: 'marketing', title: 'Marketing email', content: <MarketingPanel /> },
    { id: 'policies', title: 'Terms and privacy notice', content: <PoliciesPanel /> },
    { id: 'delete', title: 'Delete your account', content: <DeleteAccountPanel /> },
  ];
  return <PrivacyDataLayout sections={sections} />;
}
