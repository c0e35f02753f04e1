import { describe, expect, it } from 'vitest';
import { indefiniteArticle, withArticle } from '../../src/domain/grammar.js';

describe('articles in generated text', () => {
  it.each([
    ['image', 'an'],
    ['script', 'a'],
    ['xhr', 'a'],
    ['fetch', 'a'],
    ['other', 'an'],
    ['SVG', 'an'],
    ['PNG', 'a'],
    ['HTML', 'an'],
    ['JPEG', 'a'],
    ['ICO', 'an'],
    ['user', 'a'],
    ['uptime', 'an'],
    ['hour', 'an'],
    ['European', 'a'],
    ['one-time', 'a'],
  ])('%s takes "%s"', (word, article) => {
    expect(indefiniteArticle(word)).toBe(article);
  });

  it('writes the word with its article', () => {
    expect(withArticle('image')).toBe('an image');
    expect(withArticle('stylesheet')).toBe('a stylesheet');
  });
});
