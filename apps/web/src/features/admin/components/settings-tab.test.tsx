import { DEFAULT_SETTINGS, type PlatformSettings } from '@karoo/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

function mockSettings(put: (body: PlatformSettings) => Response) {
  const sent: PlatformSettings[] = [];
  const other: Record<string, unknown>[] = [];
  const fetchMock = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/settings': ok(DEFAULT_SETTINGS),
    'PUT /api/settings': ({ init }) => {
      const body = JSON.parse(String(init?.body)) as PlatformSettings;
      sent.push(body);
      return put(body);
    },
    'POST /api/user/change-password': ({ init }) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      other.push(body);
      return body.currentPassword === 'Demo@1234'
        ? ok(null, 'Password changed. You were signed out on every other device.')
        : fail(400, 'Current password is incorrect', { currentPassword: 'Current password is incorrect' });
    },
    'POST /api/admin/cache/clear': () => {
      other.push({ cleared: true });
      return ok({ cleared: ['browse', 'settings'] });
    },
  });
  return { sent, other, fetchMock };
}

describe('Settings tab', () => {
  it('holds edits locally, keeps paired keys as one field, and saves the whole record', async () => {
    signIn(adminUser);
    const { sent } = mockSettings((body) => ok(body, 'Settings saved'));
    const { user } = renderApp({ path: '/admin?tab=settings' });

    const fee = await screen.findByLabelText('Platform fee (%)');
    expect(fee).toHaveValue(25);
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save All Settings' })).toBeDisabled();

    await user.clear(fee);
    await user.type(fee, '20');
    await user.clear(screen.getByLabelText('Service fee / commission (%)'));
    await user.type(screen.getByLabelText('Service fee / commission (%)'), '12');
    await user.click(screen.getByLabelText('Instant booking'));
    expect(screen.getByText('You have unsaved changes')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      ...DEFAULT_SETTINGS,
      platform_fee: 20,
      platformCommission: 12,
      commission_rate: 12,
      // Instant booking on is host approval off: one switch, both keys (decision 056).
      business_rules: { ...DEFAULT_SETTINGS.business_rules, instant_booking_enabled: true, require_host_approval: false },
    });
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    expect(screen.getByText('All changes saved')).toBeInTheDocument();
  });

  it('shows no switch that silently does nothing: the ones nothing reads yet are disabled and say so, and keep their stored values on save', async () => {
    signIn(adminUser);
    const stored: PlatformSettings = { ...DEFAULT_SETTINGS, smsNotifications: true, business_rules: { ...DEFAULT_SETTINGS.business_rules, surge_pricing_enabled: true } };
    const sent: PlatformSettings[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/settings': ok(stored),
      'PUT /api/settings': ({ init }) => {
        const body = JSON.parse(String(init?.body)) as PlatformSettings;
        sent.push(body);
        return ok(body, 'Settings saved');
      },
    });
    const { user } = renderApp({ path: '/admin?tab=settings' });
    const instant = await screen.findByLabelText('Instant booking');
    expect(instant).toBeEnabled();
    // Host approval is the same question as instant booking: no second switch for it.
    expect(screen.queryByLabelText('Require host approval')).not.toBeInTheDocument();
    for (const [label, checked] of [
      ['Auto-approve hosts', true],
      ['Automatic pricing adjustment', false],
      ['Surge pricing', true],
      ['SMS notifications', true],
    ] as const) {
      const box = screen.getByLabelText(label);
      expect(box, label).toBeDisabled();
      if (checked) expect(box, label).toBeChecked();
      else expect(box, label).not.toBeChecked();
      expect(box.closest('div')?.parentElement?.textContent, label).toContain('Stored for a later release; nothing reads it yet.');
    }
    expect(screen.getByLabelText('Email notifications')).toBeEnabled();

    await user.click(instant);
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ smsNotifications: true, autoApproveHosts: true, business_rules: { surge_pricing_enabled: true, automatic_pricing_adjustment: false, instant_booking_enabled: true, require_host_approval: false } });
  });

  it('edits the host cancellation penalties in whole rand from 0 to 10 000 and saves them with the record', async () => {
    signIn(adminUser);
    const { sent } = mockSettings((body) => ok(body, 'Settings saved'));
    const { user } = renderApp({ path: '/admin?tab=settings' });

    const early = await screen.findByLabelText('Penalty more than 24 hours before the start (R)');
    const late = screen.getByLabelText('Penalty within 24 hours of the start (R)');
    expect(early).toHaveValue(250);
    expect(late).toHaveValue(500);

    await user.clear(early);
    await user.type(early, '10001');
    await user.clear(late);
    await user.type(late, '12.5');
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    expect(await screen.findByText('Early cancellation penalty must be at most R 10 000')).toBeInTheDocument();
    expect(screen.getByText('Late cancellation penalty must be a whole number of rand')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await user.clear(early);
    await user.type(early, '300');
    await user.clear(late);
    await user.type(late, '600');
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ ...DEFAULT_SETTINGS, host_cancellation_penalty_early: 300, host_cancellation_penalty_late: 600 });
  });

  it('refuses values outside the limits before sending, and Discard restores the stored values', async () => {
    signIn(adminUser);
    const { sent } = mockSettings((body) => ok(body));
    const { user } = renderApp({ path: '/admin?tab=settings' });
    const fee = await screen.findByLabelText('Platform fee (%)');
    await user.clear(fee);
    await user.type(fee, '101');
    const days = screen.getByLabelText('Maximum rental duration (days)');
    await user.clear(days);
    await user.type(days, '366');
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    expect(await screen.findByText('Platform fee must be between 0 and 100')).toBeInTheDocument();
    expect(screen.getByText('Maximum rental duration must be between 1 and 365 days')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.getByLabelText('Platform fee (%)')).toHaveValue(25);
    expect(screen.getByLabelText('Maximum rental duration (days)')).toHaveValue(30);
    expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument();
  });

  it('shows Save Failed with the server message, else the catalogue text, and keeps the edits', async () => {
    signIn(adminUser);
    let answer = () => fail(503, 'Karoo is under maintenance. Please try again later.');
    mockSettings(() => answer());
    const { user } = renderApp({ path: '/admin?tab=settings' });
    const fee = await screen.findByLabelText('Platform fee (%)');
    await user.clear(fee);
    await user.type(fee, '30');
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    expect(await screen.findByText('Save Failed')).toBeInTheDocument();
    expect(screen.getByText('Karoo is under maintenance. Please try again later.')).toBeInTheDocument();
    answer = () => fail(500, 'Something went wrong');
    await user.click(screen.getByRole('button', { name: 'Save All Settings' }));
    expect(await screen.findByText('Failed to save settings. Please try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Platform fee (%)')).toHaveValue(30);
    expect(screen.getByText('You have unsaved changes')).toBeInTheDocument();
  });

  it('changes the admin password under the reset rules and clears the system cache after confirming', async () => {
    signIn(adminUser);
    const { other } = mockSettings((body) => ok(body));
    const { user } = renderApp({ path: '/admin?tab=settings' });
    await screen.findByLabelText('Platform fee (%)');

    await user.type(screen.getByLabelText('Current password'), 'Wrong-pass-1');
    await user.type(screen.getByLabelText('New password'), 'password123');
    await user.type(screen.getByLabelText('Confirm new password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Change Admin Password' }));
    expect(await screen.findByText('Password is too common. Please choose a stronger password.')).toBeInTheDocument();
    expect(other).toHaveLength(0);

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'Fresh-pass-42');
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'Fresh-pass-42');
    expect(screen.getByTestId('password-strength')).toHaveTextContent('Strong');
    await user.click(screen.getByRole('button', { name: 'Change Admin Password' }));
    expect(await screen.findAllByText('Current password is incorrect')).not.toHaveLength(0);

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'Demo@1234');
    await user.click(screen.getByRole('button', { name: 'Change Admin Password' }));
    expect(await screen.findByText('Password changed. You were signed out on every other device.')).toBeInTheDocument();
    expect(other.at(-1)).toEqual({ currentPassword: 'Demo@1234', newPassword: 'Fresh-pass-42' });
    expect(screen.getByLabelText('Current password')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Clear System Cache' }));
    expect(other.filter((o) => o.cleared)).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'Clear Cache' }));
    expect(await screen.findByText('Cleared: car browse pages and platform settings.')).toBeInTheDocument();
    expect(other.filter((o) => o.cleared)).toHaveLength(1);
  });
});
