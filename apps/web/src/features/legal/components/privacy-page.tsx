// /privacy: the Privacy Policy under POPIA (decisions.md section 12 and decision 050: financial
// records kept 5 years under an anonymised party, identity documents only for the retention period
// after verification, requests answered within 30 days, not for under-18s). It names the
// Information Officer from the settings and says how to complain to the Information Regulator.
import { DEFAULT_SETTINGS, INFORMATION_REGULATOR, SUPPORT_EMAIL } from '@karoo/shared';
import { Link } from 'react-router';
import { useSettings } from '@/lib/queries/settings';
import { PATHS } from '@/lib/routes';
import { LegalPage, type LegalSection } from './legal-page';

const link = 'font-medium text-brand-700 hover:underline';

/** The Information Officer (admin settings): name, email and phone, as the privacy page names them. */
function InformationOfficer() {
  const settings = useSettings().data ?? DEFAULT_SETTINGS;
  const name = settings.information_officer_name.trim();
  const email = settings.information_officer_email.trim() || SUPPORT_EMAIL;
  const phone = settings.information_officer_phone.trim();
  return (
    <address className="not-italic" aria-label="Information Officer">
      <strong>{name ? `${name}, Information Officer` : 'Karoo’s Information Officer'}</strong>
      <br />
      Email:{' '}
      <a href={`mailto:${email}`} className={link}>
        {email}
      </a>
      {phone ? (
        <>
          <br />
          Phone:{' '}
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={link}>
            {phone}
          </a>
        </>
      ) : null}
    </address>
  );
}

function RetentionDays() {
  const settings = useSettings().data ?? DEFAULT_SETTINGS;
  return (
    <>
      <li>
        <strong>Identity documents</strong> (the files) are deleted <strong>{settings.document_retention_days} days after your account is verified</strong>.
        We keep that you were verified, by whom and when, and tell you when the files are gone. Documents of an account that was not
        approved, or that were never completed for review, are deleted after <strong>{settings.unsubmitted_document_days} days</strong>.
      </li>
    </>
  );
}

const mail = (
  <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
    {SUPPORT_EMAIL}
  </a>
);

const SECTIONS: LegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        Karoo operates a peer-to-peer car rental marketplace in South Africa and is the responsible party for the personal information
        described here, under the Protection of Personal Information Act 4 of 2013 (POPIA). Questions and requests about your
        information go to our Information Officer:
      </p>
    ),
  },
  {
    id: 'information-officer',
    title: 'Information Officer',
    body: <InformationOfficer />,
  },
  {
    id: 'what-we-collect',
    title: 'What we collect',
    body: (
      <ul>
        <li>
          <strong>Account details:</strong> your name, username, email address, phone number and password (stored only as a secure hash).
        </li>
        <li>
          <strong>Verification details:</strong> your ID or passport number, address, identity document, driver&apos;s licence, proof of
          address and bank confirmation letter.
        </li>
        <li>
          <strong>Banking details:</strong> your bank account number and branch code, so hosts can be paid.
        </li>
        <li>
          <strong>Bookings and payments:</strong> the cars you book or list, dates, prices, payment references and reviews. Card numbers
          are handled by our payment provider and never stored by Karoo.
        </li>
        <li>
          <strong>Technical information:</strong> sign-in sessions, device and browser information and logs that keep the service secure.
        </li>
      </ul>
    ),
  },
  {
    id: 'why',
    title: 'Why we use it',
    body: (
      <>
        <p>We process your information only for these purposes, and only as much as they need:</p>
        <ul>
          <li>to create and secure your account and verify your identity;</li>
          <li>to arrange bookings between renters and hosts, take payments and pay out earnings;</li>
          <li>to send you booking confirmations, account notices and password reset links;</li>
          <li>to prevent fraud and keep the community safe;</li>
          <li>to meet our legal, tax and regulatory obligations.</li>
        </ul>
        <p>We do not sell your personal information, and we do not use your documents for marketing.</p>
      </>
    ),
  },
  {
    id: 'sharing',
    title: 'Who sees it',
    body: (
      <p>
        Your documents and bank details are private: only you and Karoo administrators can see them. When you book, the host sees your
        name and the booking details; when you host, renters see your name and your car&apos;s public listing. We share information with
        service providers (payment processing, email, hosting) under contracts that require them to protect it, and with authorities
        when the law requires it.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          <strong>Financial records</strong> (payments, refunds, payouts, invoices) are kept for <strong>5 years</strong>, as the Tax
          Administration Act (s. 29) requires. If you delete your account they stay under an anonymous &ldquo;Former member&rdquo;, not your
          name.
        </li>
        <RetentionDays />
        <li>
          When you <strong>delete your account</strong> (Profile → Privacy and data), your name, contact details, ID number, bank details,
          documents and what you wrote in messages are erased at once; we email you what was deleted and what is kept until when.
        </li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <p>
        Documents are encrypted (AES-256) before they are stored, outside any public location, and are served only to you and
        authorised administrators, each view recorded. Passwords are hashed, sessions use
        random tokens, and access by our staff is limited to what their work needs. If a security compromise affects your information,
        we will notify you by email and in the app, and the Information Regulator, as section 22 of POPIA requires.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your rights',
    body: (
      <>
        <p>Under POPIA you may:</p>
        <ul>
          <li>ask whether we hold information about you and request a copy;</li>
          <li>ask us to correct or delete information that is inaccurate, out of date or unlawfully held;</li>
          <li>object to processing, including for direct marketing;</li>
          <li>lodge a complaint with the Information Regulator.</li>
        </ul>
        <p>
          Most of these you can do yourself from <strong>Profile → Privacy and data</strong>; send any other request to the Information
          Officer above or to {mail}. We answer every request within <strong>30 days</strong>.
        </p>
        <p id="complain">
          <strong>Complaining to the Information Regulator.</strong> If you believe we have interfered with your personal information, you
          can complain to the {INFORMATION_REGULATOR.name}: through its eServices portal at{' '}
          <a href={INFORMATION_REGULATOR.portal} className={link} rel="noreferrer" target="_blank">
            eservices.inforegulator.org.za
          </a>
          , or by emailing POPIA Form 5 to{' '}
          <a href={`mailto:${INFORMATION_REGULATOR.complaintsEmail}`} className={link}>
            {INFORMATION_REGULATOR.complaintsEmail}
          </a>
          . General enquiries: {INFORMATION_REGULATOR.enquiriesEmail}, {INFORMATION_REGULATOR.phone};{' '}
          <a href={INFORMATION_REGULATOR.website} className={link} rel="noreferrer" target="_blank">
            inforegulator.org.za
          </a>
          , {INFORMATION_REGULATOR.address}.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>
        Karoo is <strong>not intended for anyone under 18</strong>, and we do not knowingly collect information about children. If you
        believe a child has given us information, contact us and we will delete it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We will post any changes on this page and update the date above; for material changes we will also notify you by email. See our{' '}
        <Link to={PATHS.terms} className="font-medium text-brand-700 hover:underline">
          Terms of Service
        </Link>{' '}
        for the rules of using Karoo.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      other={{ to: PATHS.terms, label: 'Terms of Service' }}
      intro={
        <p>
          Renting or sharing a car means trusting each other, and that starts with how we handle your information. This policy explains
          what personal information Karoo collects, why, who can see it, how long we keep it and the rights you have under POPIA.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
