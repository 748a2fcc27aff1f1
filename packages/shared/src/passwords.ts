// Reset-password rules of document 1 section 5.
export const COMMON_PASSWORDS = [
  'password',
  '123456',
  '123456789',
  'qwerty',
  'abc123',
  'password123',
  'admin',
  'letmein',
] as const;

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return COMMON_PASSWORDS.some((common) => common === lower);
}

/** Score 0 to 5: length 8+, a lowercase letter, an uppercase letter, a digit, a symbol. */
export function passwordStrength(password: string): number {
  let score = 0;
  if (password.length >= 8) score++;
  if (/[a-z]/.test(password)) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  return score;
}

export const STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

/** The label for a score: 0 and 1 are Very Weak, then one label per point up to Strong at 5. */
export function strengthLabel(score: number): (typeof STRENGTH_LABELS)[number] {
  const index = Math.min(Math.max(score - 1, 0), STRENGTH_LABELS.length - 1);
  return STRENGTH_LABELS[index]!;
}
