// Every email is one template with an HTML and a text part (lib/mail-templates, decision 036):
// both carry the greeting, every paragraph and the button's link; text from users is escaped.
import { describe, expect, it } from 'vitest';
import { renderMail } from '../src/lib/mail';

describe('the email template', () => {
  it('renders the HTML and the text part from the same content', async () => {
    const mail = await renderMail({
      greeting: 'Hi Naledi Dlamini,',
      paragraphs: ['Your booking of the Volkswagen Polo is confirmed.', 'Pay within 24 hours to secure it.'],
      action: { label: 'Open Karoo', url: 'https://karoo.test/my-bookings?tab=renter&x=1' },
    });
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    expect(mail.html).toContain('Hi Naledi Dlamini,');
    expect(mail.html).toContain('Your booking of the Volkswagen Polo is confirmed.');
    expect(mail.html).toContain('href="https://karoo.test/my-bookings?tab=renter&amp;x=1"');
    expect(mail.html).toContain('Open Karoo');
    expect(mail.text).toBe(
      'Hi Naledi Dlamini,\n\nYour booking of the Volkswagen Polo is confirmed.\n\nPay within 24 hours to secure it.\n\nOpen Karoo: https://karoo.test/my-bookings?tab=renter&x=1\n\nThe Karoo team',
    );
  });

  it('escapes what people typed: a name or a reason never becomes markup', async () => {
    const mail = await renderMail({ greeting: 'Hi <script>alert(1)</script>,', paragraphs: ['Rejected: <b>"blurry" & old</b>'] });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('Rejected: <b>"blurry" & old</b>');
  });

  it('leaves the button out when there is no action', async () => {
    const mail = await renderMail({ greeting: 'Hi,', paragraphs: ['Your account has been verified.'] });
    expect(mail.html).not.toContain('<a ');
    expect(mail.text).not.toContain(': http');
  });
});
