// Values made on first use. Building an Intl formatter costs milliseconds (a time zone's rules, a
// locale's patterns are loaded), and a module's top level runs before its page can paint or answer:
// on a phone, the formatters of every module the entry imports cost a hundred milliseconds and more
// before the first frame (decision 052). A module keeps `const f = lazily(() => new Intl...)` and
// calls `f()` where it formats.

/** `make()`'s value, made on the first call and kept. */
export function lazily<T>(make: () => T): () => T {
  let value: T;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
