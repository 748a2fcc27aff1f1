// Contact details hidden in booking messages until the booking is paid (decisions 041 and 058). The
// text is matched in a normalised reading (NFKC, so full-width digits and ＠ become ASCII; format
// characters such as zero-width spaces, joiners and soft hyphens dropped; lower case) and masked in
// the text as typed, so the rest of the message keeps its writer's spelling. A phone number is seven
// or more digits, written as digits or as words ("oh eight two", Afrikaans "nul agt twee"), joined
// by spaces, dots, dashes, brackets or slashes; dates and rand amounts are not phone numbers. An
// email is `name@domain.tld`, also with "(at)", "[at]" or " at " and "(dot)", "[dot]" or " dot ".

export const PHONE_HIDDEN = '[phone hidden until the booking is paid]';
export const EMAIL_HIDDEN = '[email hidden until the booking is paid]';

/** Spoken digits, English and Afrikaans. A lone "o" is a zero only inside a run of digits. */
const DIGIT_WORDS: Record<string, string> = {
  zero: '0', oh: '0', o: '0', nought: '0', nil: '0', one: '1', two: '2', three: '3', four: '4', five: '5',
  six: '6', seven: '7', eight: '8', nine: '9',
  nul: '0', een: '1', twee: '2', drie: '3', vier: '4', vyf: '5', ses: '6', sewe: '7', agt: '8', nege: '9',
};
/** "double five" is 55, "triple oh" 000. */
const REPEAT_WORDS: Record<string, number> = { double: 2, triple: 3, dubbel: 2, trippel: 3 };
/** What may stand between the digits of one number: spaces, dots, dashes, brackets, slashes, underscores. */
const PHONE_SEPARATOR = /[\s.\-()/_]/;
/** At most this many separators in a row inside one number (") - ", say). */
const MAX_SEPARATORS = 3;
const PHONE_MIN_DIGITS = 7;
// A lone "o" or "oh" counts only beside other digits: "oh well" is no number.
const WEAK_ZEROS = new Set(['o', 'oh']);

/** Dates (2026-12-10, 10/12/2026) and rand amounts (R 1 050, R1,050.00) break a run of digits. */
const NOT_A_PHONE = [
  /(?<!\d)\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d)/g,
  /(?<!\d)\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2})(?!\d)/g,
  /(?<![a-z])(?:r|zar)\s?[1-9]\d{0,2}(?:[ ,]\d{3})*(?:[.,]\d{2})?(?!\d)/g,
];

const AT = String.raw`(?:\s*@\s*|\s*[[({<]\s*at\s*[\])}>]\s*|\s+at\s+)`;
const DOT = String.raw`(?:\.|\s+\.\s+|\s*[[({<]\s*dot\s*[\])}>]\s*|\s+dot\s+)`;
const EMAIL = new RegExp(String.raw`(?<![a-z0-9._%+-])[a-z0-9._%+-]+(${AT})[a-z0-9-]+(?:${DOT}[a-z0-9-]+)*(${DOT})[a-z]{2,}(?![a-z0-9-])`, 'g');
// Written with a loose " at " (or " @ ") and plain dots, an address must end in a common top-level
// domain, or "be at home.Now" and "see you @ the gate.Thanks" would be one.
const COMMON_TLD = /\.(?:com|net|org|za|io|me|info|biz|africa|co|email|online)$/;

/** The text as matched, lower case, with where each of its characters came from in the original. */
interface Normalised {
  text: string;
  /** For each character of `text`, the index of the original character it came from. */
  from: number[];
  /** For each character of `text`, the index just past that original character. */
  to: number[];
}

function normalise(original: string): Normalised {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  let index = 0;
  for (const char of original) {
    const next = index + char.length;
    // Format characters (zero-width space and joiners, soft hyphen, BOM) and combining marks vanish.
    const reading = char.normalize('NFKC').toLowerCase().replace(/[\p{Cf}\p{Mn}]/gu, '');
    for (let k = 0; k < reading.length; k += 1) {
      text += reading[k];
      from.push(index);
      to.push(next);
    }
    index = next;
  }
  return { text, from, to };
}

type Range = [start: number, end: number];

function emailRanges(text: string): Range[] {
  const ranges: Range[] = [];
  EMAIL.lastIndex = 0;
  for (let match = EMAIL.exec(text); match; match = EMAIL.exec(text)) {
    const [whole, at = ''] = match;
    const domain = whole.slice(whole.indexOf(at) + at.length);
    // "@" typed tight or "[at]" is an address; " at " or " @ " with plain dots may be a sentence.
    const isLooseAt = at.trim() === 'at' || (at.trim() === '@' && at !== '@');
    const hasSpelledDot = /(?:\s|[[({<])dot(?:\s|[\])}>])/.test(domain);
    if (isLooseAt && !hasSpelledDot && !COMMON_TLD.test(domain.replace(/\s+/g, ''))) {
      // Not an address: look again from the next character (a later start may be one).
      EMAIL.lastIndex = match.index + 1;
      continue;
    }
    ranges.push([match.index, match.index + whole.length]);
  }
  return ranges;
}

function phoneRanges(text: string, taken: Range[]): Range[] {
  const blocked = new Uint8Array(text.length);
  for (const [start, end] of taken) blocked.fill(1, start, end);
  for (const pattern of NOT_A_PHONE) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) blocked.fill(1, match.index, match.index + match[0].length);
  }

  const ranges: Range[] = [];
  let run: { start: number; end: number; digits: number; strong: boolean } | null = null;
  let separators = 0;
  let repeat = 1;
  const close = () => {
    if (run && run.strong && run.digits >= PHONE_MIN_DIGITS) {
      // A leading + or ( belongs to the number.
      let start = run.start;
      while (start > 0 && /[+(]/.test(text[start - 1]!) && !blocked[start - 1]) start -= 1;
      ranges.push([start, run.end]);
    }
    run = null;
    separators = 0;
    repeat = 1;
  };
  const addUnit = (start: number, end: number, digits: number, weak: boolean) => {
    const count = digits * repeat;
    repeat = 1;
    separators = 0;
    if (run) {
      run.end = end;
      run.digits += count;
      run.strong ||= !weak;
    } else run = { start, end, digits: count, strong: !weak };
  };

  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (blocked[i]) {
      close();
      i += 1;
    } else if (char >= '0' && char <= '9') {
      addUnit(i, i + 1, 1, false);
      i += 1;
    } else if (/[a-z]/.test(char)) {
      let end = i;
      while (end < text.length && /[a-z]/.test(text[end]!) && !blocked[end]) end += 1;
      const word = text.slice(i, end);
      if (word in DIGIT_WORDS) addUnit(i, end, 1, WEAK_ZEROS.has(word));
      else if (word in REPEAT_WORDS && run) {
        repeat = REPEAT_WORDS[word]!;
        separators = 0;
      } else if (word in REPEAT_WORDS) {
        // "double" may open a number too ("double oh eight ..."): start the run at it.
        run = { start: i, end, digits: 0, strong: false };
        repeat = REPEAT_WORDS[word]!;
        separators = 0;
      } else close();
      i = end;
    } else if (PHONE_SEPARATOR.test(char) && run) {
      separators += 1;
      if (separators > MAX_SEPARATORS) close();
      i += 1;
    } else {
      close();
      i += 1;
    }
  }
  close();
  return ranges;
}

/** The text with email addresses and phone numbers replaced by a note saying why they are hidden. */
export function maskContactDetails(text: string): { text: string; masked: boolean } {
  const reading = normalise(text);
  const emails = emailRanges(reading.text);
  const phones = phoneRanges(reading.text, emails);
  const found = [...emails.map((range) => ({ range, note: EMAIL_HIDDEN })), ...phones.map((range) => ({ range, note: PHONE_HIDDEN }))];
  if (found.length === 0) return { text, masked: false };
  // Back to the original's positions, replaced from the end so earlier positions stay valid.
  found.sort((a, b) => b.range[0] - a.range[0]);
  let masked = text;
  for (const { range, note } of found) {
    const start = reading.from[range[0]]!;
    const end = reading.to[range[1] - 1]!;
    masked = masked.slice(0, start) + note + masked.slice(end);
  }
  return { text: masked, masked: true };
}
