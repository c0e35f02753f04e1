/**
 * "a" or "an" before `word`, as it is read aloud: "an image", "a script", "an SVG" (letters
 * read one by one), "a PNG", "a user", "an hour". Generated text names things it did not
 * choose (a resource type, a file type), so the article cannot be written in by hand.
 */
export function indefiniteArticle(word: string): 'a' | 'an' {
  const w = word.trim();
  // An acronym is read letter by letter: F, H, L, M, N, R, S and X start with a vowel sound.
  if (/^[A-Z]{2,}\b/.test(w)) return /^[AEFHILMNORSX]/.test(w) ? 'an' : 'a';
  const lower = w.toLowerCase();
  if (/^(uni|use|usu|ura|uti|eu|one|once)/.test(lower)) return 'a';
  if (/^(hour|honest|honou?r|heir)/.test(lower)) return 'an';
  return /^[aeiou]/.test(lower) ? 'an' : 'a';
}

/** `word` with its article: "an image". */
export const withArticle = (word: string): string => `${indefiniteArticle(word)} ${word}`;
