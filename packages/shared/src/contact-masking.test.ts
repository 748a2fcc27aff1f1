import { describe, expect, it } from 'vitest';
import { EMAIL_HIDDEN, maskContactDetails, PHONE_HIDDEN } from './contact-masking';

const ZWSP = '\u200b';
const ZWJ = '\u200d';
const SOFT_HYPHEN = '\u00ad';
const fullWidth = (ascii: string) => [...ascii].map((c) => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('');

describe('maskContactDetails: evasions are masked', () => {
  // [what the writer tried, the contact as they typed it, the note it becomes]
  const evasions: [string, string, string][] = [
    ['plain digits', '082 555 1234', PHONE_HIDDEN],
    ['international', '+27 82 555 1234', PHONE_HIDDEN],
    ['area code in brackets', '(021) 555-1234', PHONE_HIDDEN],
    ['no spaces', '0825551234', PHONE_HIDDEN],
    ['dots', '082.555.1234', PHONE_HIDDEN],
    ['dashes', '082-555-1234', PHONE_HIDDEN],
    ['a space between every digit', '0 8 2 5 5 5 1 2 3 4', PHONE_HIDDEN],
    ['full-width digits', fullWidth('082 555 1234'), PHONE_HIDDEN],
    ['full-width, no spaces', fullWidth('0825551234'), PHONE_HIDDEN],
    ['zero-width spaces between digits', [...'0825551234'].join(ZWSP), PHONE_HIDDEN],
    ['zero-width joiners and soft hyphens', `08${ZWJ}2${SOFT_HYPHEN}555${ZWJ}12${SOFT_HYPHEN}34`, PHONE_HIDDEN],
    ['byte order marks', `082\ufeff555\ufeff1234`, PHONE_HIDDEN],
    ['spelled out', 'oh eight two five five five one two three four', PHONE_HIDDEN],
    ['spelled out with zero', 'zero eight two five five five one two three four', PHONE_HIDDEN],
    ['spelled out in capitals, with dashes', 'OH-EIGHT-TWO-FIVE-FIVE-FIVE-ONE-TWO-THREE-FOUR', PHONE_HIDDEN],
    ['words and digits mixed', 'oh eight two 555 one two three four', PHONE_HIDDEN],
    ['double and triple', 'oh eight two triple five one two three four', PHONE_HIDDEN],
    ['Afrikaans', 'nul agt twee vyf vyf vyf een twee drie vier', PHONE_HIDDEN],
    ['a letter O for the zero', 'O82 555 1234', PHONE_HIDDEN],
    ['combining marks on the digits', '0\u03328\u03322\u0332 555 1234', PHONE_HIDDEN],
    ['mathematical bold digits', '𝟎𝟖𝟐 𝟓𝟓𝟓 𝟏𝟐𝟑𝟒', PHONE_HIDDEN],
    ['circled digits', '⓪⑧② ⑤⑤⑤ ①②③④', PHONE_HIDDEN],
    ['email', 'jo.smith+cars@example.co.za', EMAIL_HIDDEN],
    ['email in capitals', 'JO.SMITH@EXAMPLE.COM', EMAIL_HIDDEN],
    ['(at)', 'jo (at) example.com', EMAIL_HIDDEN],
    ['[at] [dot]', 'jo [at] example [dot] com', EMAIL_HIDDEN],
    ['(at) (dot) twice', 'jo(at)example(dot)co(dot)za', EMAIL_HIDDEN],
    ['{at} {dot}', 'jo {at} gmail {dot} com', EMAIL_HIDDEN],
    ['at and dot as words', 'jo at example dot com', EMAIL_HIDDEN],
    ['at as a word, plain dots', 'jo.smith at gmail.com', EMAIL_HIDDEN],
    ['spaces around @ and the dot', 'jo @ example . com', EMAIL_HIDDEN],
    ['full-width ＠', 'jo＠example.com', EMAIL_HIDDEN],
    ['full-width ＠ and ．', 'jo＠example．co．za', EMAIL_HIDDEN],
    ['all full-width', fullWidth('jo@example.com'), EMAIL_HIDDEN],
    ['zero-width spaces in an email', `jo${ZWSP}@${ZWSP}example${ZWSP}.com`, EMAIL_HIDDEN],
    ['soft hyphens in an email', `jo${SOFT_HYPHEN}smith@exam${SOFT_HYPHEN}ple.com`, EMAIL_HIDDEN],
  ];

  it.each(evasions)('%s', (_label, contact, note) => {
    expect(maskContactDetails(`Reach me on ${contact} please`)).toEqual({ text: `Reach me on ${note} please`, masked: true });
  });

  it('masks each of several details and keeps the words between them as typed', () => {
    const text = `Ｃall ０８２ ５５５ １２３４ or write jo [at] example [dot] com — see you Tuesday!`;
    expect(maskContactDetails(text)).toEqual({ text: `Ｃall ${PHONE_HIDDEN} or write ${EMAIL_HIDDEN} — see you Tuesday!`, masked: true });
  });

  it('keeps a date next to a number apart from it', () => {
    expect(maskContactDetails('On 2026-12-10 call 082 555 1234').text).toBe(`On 2026-12-10 call ${PHONE_HIDDEN}`);
  });
});

describe('maskContactDetails: ordinary messages are left alone', () => {
  const innocent = [
    'pickup at 10:00',
    'Pickup 2030-03-01 at 09:00',
    'R 1 050 for 3 days',
    'R1,050.00 in total, R 350 a day',
    'The car is worth R 1 050 000',
    "I'll be there at 9",
    'I will be at home.Thanks',
    'See you @ the gate.Thanks',
    'Be there at 9.30 am',
    'a date 2026-12-10',
    'from 10/12/2026 to 13/12/2026',
    'Toyota Corolla 1.6',
    'one or two bags',
    'Oh, one more thing: two child seats please',
    'Flight SA 345, gate 12',
    'The car has 45 000 km',
    'Booking KT12AB34CD',
    'Between 09:00 and 17:00, 2 adults and 1 child',
    'We land at 14:35 on 2026-12-10 and leave on 2026-12-13',
    'Is the 2019 model the 1.4 TSI?',
    'Ek sal een of twee tasse hê',
    '',
  ];

  it.each(innocent)('%j', (text) => {
    expect(maskContactDetails(text)).toEqual({ text, masked: false });
  });
});
