import { describe, expect, it } from 'vitest';
import { issuesByField } from './use-schema-form';

describe('schema issues on form fields', () => {
  it('keeps the first message per field and collects the rest as form-level', () => {
    const { errors, other } = issuesByField(
      [
        { path: ['email'], message: 'Enter an email address such as ana@example.com' },
        { path: ['email'], message: 'second' },
        { path: ['headers', 2, 'name'], message: 'nested' },
        { path: [], message: 'Invalid input: unrecognized key' },
      ],
      ['email', 'headers'],
    );
    expect(errors).toEqual({
      email: 'Enter an email address such as ana@example.com',
      headers: 'nested',
    });
    expect(other).toEqual(['This value is not valid']);
  });
});
