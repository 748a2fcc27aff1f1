import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrengthMeter } from './password-strength-meter';

function filledBars(container: HTMLElement): number {
  return container.querySelectorAll('[data-filled="true"]').length;
}

describe('PasswordStrengthMeter', () => {
  it('shows nothing before anything is typed', () => {
    const { container } = render(<PasswordStrengthMeter password="" />);
    expect(container).toBeEmptyDOMElement();
  });

  it.each([
    ['a', 1, 'Very Weak'],
    ['password', 2, 'Weak'],
    ['password1', 3, 'Fair'],
    ['Password1', 4, 'Good'],
    ['NewSecret42!', 5, 'Strong'],
  ])('scores %s as %i bars, %s', (password, bars, label) => {
    const { container } = render(<PasswordStrengthMeter password={password} />);
    expect(filledBars(container)).toBe(bars);
    expect(screen.getByText(label, { exact: true })).toBeInTheDocument();
  });

  it('always draws five bars', () => {
    const { container } = render(<PasswordStrengthMeter password="abc" />);
    expect(container.querySelectorAll('[data-filled]')).toHaveLength(5);
  });
});
