// Key emails are checked as real addresses (markup, whitespace, a missing or bad top-level domain, dot and length rules all refused) and compared in one normalized form.
import { describe, expect, it } from 'vitest';
import { isValidEmail, normalizeEmail } from '../../src/http/keys.ts';

describe('isValidEmail', () => {
  it.each([
    'dev@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'brien@example.ie",
    'x_y-z@ex-ample.io',
    'dev@xn--80ak6aa92e.com',
    'dev@example.xn--p1ai',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['markup in the local part', '<script>@x.io'],
    ['markup in the domain', 'dev@<b>.io'],
    ['a space inside', 'de v@example.com'],
    ['surrounding whitespace (trimmed by the route, not here)', ' dev@example.com'],
    ['a newline', 'dev@example.com\n'],
    ['no top-level domain', 'dev@example'],
    ['a one-letter top-level domain', 'dev@example.c'],
    ['a numeric top-level domain', 'dev@10.0.0.1'],
    ['an IP literal', 'dev@[127.0.0.1]'],
    ['an empty label', 'dev@example..com'],
    ['a leading dot in the domain', 'dev@.example.com'],
    ['a hyphen at a label edge', 'dev@-example.com'],
    ['an underscore in the domain', 'dev@exa_mple.com'],
    ['a leading dot in the local part', '.dev@example.com'],
    ['two dots in the local part', 'de..v@example.com'],
    ['a quoted local part', '"dev"@example.com'],
    ['two @', 'dev@@example.com'],
    ['no local part', '@example.com'],
    ['no domain', 'dev@'],
    ['no @', 'dev.example.com'],
    ['unicode outside punycode', 'dév@example.com'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['over 254 characters', `dev@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`],
    ['the empty string', ''],
  ])('refuses %s', (_why, email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normalizeEmail('  Dev.Ops@Example.COM ')).toBe('dev.ops@example.com');
  });
});
