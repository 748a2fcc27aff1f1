// Reset-password strength meter of document 1 section 5: one point each for length 8+, a
// lowercase letter, an uppercase letter, a digit and a symbol; five labelled bars.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS, isCommonPassword, passwordStrength, STRENGTH_LABELS, strengthLabel } from './passwords';

describe('passwordStrength', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['A', 1],
    ['7', 1],
    ['#', 1],
    ['aB3$', 4],
    ['abcdefgh', 2],
    ['ABCDEFGH', 2],
    ['12345678', 2],
    ['abcdEFGH', 3],
    ['abcdEF12', 4],
    ['Sunrise42!', 5],
    ['        ', 2],
  ])('%j scores %i', (password, score) => {
    expect(passwordStrength(password)).toBe(score);
  });

  it('always scores from 0 to 5 (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (password) => {
        const score = passwordStrength(password);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(5);
      }),
    );
  });

  it('never drops when characters are appended (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (start, more) => {
        expect(passwordStrength(start + more)).toBeGreaterThanOrEqual(passwordStrength(start));
      }),
    );
  });

  it('gains a point when a character of a class not yet present is appended (property)', () => {
    const classes = [
      { sample: fc.constantFrom(...'abcxyz'), present: /[a-z]/ },
      { sample: fc.constantFrom(...'ABCXYZ'), present: /[A-Z]/ },
      { sample: fc.constantFrom(...'0189'), present: /\d/ },
      { sample: fc.constantFrom(...'!@#$ _-é'), present: /[^A-Za-z0-9]/ },
    ];
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.nat({ max: classes.length - 1 }).chain((i) => classes[i]!.sample.map((c) => ({ c, present: classes[i]!.present }))),
        (password, { c, present }) => {
          fc.pre(!present.test(password));
          expect(passwordStrength(password + c)).toBeGreaterThan(passwordStrength(password));
        },
      ),
    );
  });
});

describe('strengthLabel', () => {
  it('has the five labels of the meter in order', () => {
    expect(STRENGTH_LABELS).toEqual(['Very Weak', 'Weak', 'Fair', 'Good', 'Strong']);
  });

  it.each([
    [0, 'Very Weak'],
    [1, 'Very Weak'],
    [2, 'Weak'],
    [3, 'Fair'],
    [4, 'Good'],
    [5, 'Strong'],
  ])('score %i reads %s', (score, label) => {
    expect(strengthLabel(score)).toBe(label);
  });

  it('labels every password the scorer can produce (property)', () => {
    fc.assert(
      fc.property(fc.string(), (password) => {
        expect(STRENGTH_LABELS).toContain(strengthLabel(passwordStrength(password)));
      }),
    );
  });
});

describe('isCommonPassword', () => {
  it('holds exactly the list of document 1', () => {
    expect([...COMMON_PASSWORDS].sort()).toEqual(['123456', '123456789', 'abc123', 'admin', 'letmein', 'password', 'password123', 'qwerty'].sort());
  });

  it('compares case-insensitively but exactly', () => {
    expect(isCommonPassword('LetMeIn')).toBe(true);
    expect(isCommonPassword('QWERTY')).toBe(true);
    expect(isCommonPassword('letmein!')).toBe(false);
    expect(isCommonPassword('Sunrise42')).toBe(false);
  });
});
