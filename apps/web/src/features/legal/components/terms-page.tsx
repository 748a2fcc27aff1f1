// /terms: the Terms of Service (document 1: renters 21+, hosts 18+, licence and ID, vehicles
// registered, insured and with clean title, fees itemised at checkout).
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
    id: 'about',
    title: 'About Karoo',
    body: (
      <>
        <p>
          Karoo is an online marketplace that connects people in South Africa who want to rent a car (&ldquo;renters&rdquo;) with
          people who own cars and make them available for rent (&ldquo;hosts&rdquo;). Karoo provides the platform, verification,
          payments and support. Karoo does not own the vehicles listed and is not a party to the rental itself, which is an agreement
          between the renter and the host made through Karoo.
        </p>
      </>
    ),
  },
  {
    id: 'eligibility',
    title: 'Who may use Karoo',
    body: (
      <>
        <ul>
          <li>
            <strong>Renters</strong> must be <strong>21 years or older</strong>.
          </li>
          <li>
            <strong>Hosts</strong> must be <strong>18 years or older</strong>.
          </li>
          <li>
            Everyone must hold a <strong>valid driver&apos;s licence</strong> (for renters) and a <strong>valid government-issued
            identity document</strong> (South African ID or passport).
          </li>
        </ul>
        <p>
          You must give accurate information when you register and keep it up to date. You are responsible for everything done through
          your account, so keep your password private.
        </p>
      </>
    ),
  },
  {
    id: 'verification',
    title: 'Account verification',
    body: (
      <>
        <p>
          To keep the community safe, every account is verified before it can book or list cars. We ask for your identity document, your
          driver&apos;s licence, a bank confirmation letter and your contact and banking details, and we may ask for proof of address.
          An administrator reviews them; until your account is approved, some features are limited.
        </p>
        <p>
          Once your account is verified, your name, identity number, address and bank details are locked. If something changes, contact
          us and we will help you update it.
        </p>
      </>
    ),
  },
  {
    id: 'hosts',
    title: 'Hosts and their vehicles',
    body: (
      <>
        <p>By listing a vehicle, a host confirms that the vehicle:</p>
        <ul>
          <li>is registered and licensed in South Africa, with a valid licence disc;</li>
          <li>is insured, and the host&apos;s insurer allows it to be used for peer-to-peer rental;</li>
          <li>has a clean title: it is owned by the host or the host is authorised to rent it out, and it is not stolen or written off;</li>
          <li>is roadworthy, clean and maintained according to the manufacturer&apos;s schedule.</li>
        </ul>
        <p>
          Listings are reviewed before they are shown to renters. Hosts must describe their vehicles honestly, honour accepted bookings
          and hand over the vehicle at the agreed time and place.
        </p>
      </>
    ),
  },
  {
    id: 'bookings',
    title: 'Bookings, prices and fees',
    body: (
      <>
        <p>
          Prices are shown in South African rand (R) per day unless stated otherwise. Before you pay, the checkout shows an itemised
          breakdown of the rental price, the service fee, any insurance or delivery options you chose, and the total. You will never be
          charged an amount that was not shown to you at checkout.
        </p>
        <p>
          A booking request becomes confirmed when the host accepts it, and is secured once payment succeeds. Requests that are not
          answered or paid in time expire. Hosts receive their earnings after Karoo&apos;s platform fee, which is shown to them before
          they list.
        </p>
      </>
    ),
  },
  {
    id: 'renters',
    title: 'Renters’ responsibilities',
    body: (
      <ul>
        <li>Only the verified renter, with a valid driver&apos;s licence, may drive the vehicle.</li>
        <li>Obey the rules of the road, and do not use the vehicle for unlawful purposes, racing, towing or ride-hailing.</li>
        <li>Return the vehicle on time, in the condition you received it, with the agreed fuel level.</li>
        <li>You are responsible for traffic fines, tolls and e-tolls incurred during your trip.</li>
        <li>Report any accident, damage or breakdown to the host and to Karoo straight away.</li>
      </ul>
    ),
  },
  {
    id: 'cancellations',
    title: 'Cancellations and disputes',
    body: (
      <p>
        Renters may withdraw a request, or cancel a confirmed booking before paying for it. If something goes wrong during a trip,
        contact us at {mail}. Our support team helps renters and hosts resolve disputes about damage, cleanliness, late returns or fees,
        and may review booking records to do so.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Liability',
    body: (
      <p>
        Karoo provides the platform with reasonable care and skill. To the extent permitted by law, including the Consumer Protection
        Act, Karoo is not liable for loss caused by the acts or omissions of renters or hosts. Nothing in these terms limits any rights
        you have under South African law that cannot be excluded.
      </p>
    ),
  },
  {
    id: 'privacy',
    title: 'Your personal information',
    body: (
      <p>
        We process your personal information as described in our{' '}
        <Link to={PATHS.privacy} className="font-medium text-brand-700 hover:underline">
          Privacy Policy
        </Link>
        , in line with the Protection of Personal Information Act (POPIA).
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes, suspension and law',
    body: (
      <>
        <p>
          We may update these terms; we will tell you about material changes before they take effect. We may suspend or close accounts
          that break these terms or put other users at risk.
        </p>
        <p>These terms are governed by the laws of the Republic of South Africa. Questions? Write to {mail}.</p>
      </>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      other={{ to: PATHS.privacy, label: 'Privacy Policy' }}
      intro={
        <p>
          These terms apply to everyone who uses Karoo, whether you rent a car, list one, or both. Please read them carefully: by creating
          an account you agree to them.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
