// /privacy: the Privacy Policy under POPIA (document 1: transactions kept 7 years, identity
// documents 5 years after closure, requests answered within 30 days, not for under-18s).
import { SUPPORT_EMAIL } from '@karoo/shared';
import { Link } from 'react-router';
import { PATHS } from '@/lib/routes';
import { LegalPage, type LegalSection } from './legal-page';

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
        described here, under the Protection of Personal Information Act 4 of 2013 (POPIA). Our Information Officer can be reached at{' '}
        {mail}.
      </p>
    ),
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
          <strong>Transaction records</strong> (bookings, payments, invoices) are kept for <strong>7 years</strong>, as tax law
          requires.
        </li>
        <li>
          <strong>Identity documents</strong> are kept for <strong>5 years after your account is closed</strong>, to meet our
          verification and fraud-prevention obligations.
        </li>
        <li>Other account information is deleted or anonymised when your account is closed, unless the law requires us to keep it.</li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    body: (
      <p>
        Documents are stored outside any public location and are served only to authorised people. Passwords are hashed, sessions use
        random tokens, and access by our staff is limited to what their work needs. If a security compromise affects your information,
        we will notify you and the Information Regulator as POPIA requires.
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
          <li>lodge a complaint with the Information Regulator (inforeg.org.za).</li>
        </ul>
        <p>
          Send requests to {mail}. We answer every request within <strong>30 days</strong>.
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
