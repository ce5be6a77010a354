import { describe, expect, it } from 'vitest';
import { API_TOKEN_MIN_LENGTH, generateApiToken, isStrongApiToken } from './api-token';

describe('connection API tokens', () => {
  it('generates 32 url-safe characters, every one different and strong', () => {
    const tokens = Array.from({ length: 500 }, generateApiToken);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(isStrongApiToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // every letter of the alphabet is drawn: 192 bits over 64 letters
    expect(new Set(tokens.join('')).size).toBe(64);
  });

  it('takes a typed token only when it is as strong as a generated one', () => {
    for (const weak of [
      '7',
      'x'.repeat(API_TOKEN_MIN_LENGTH - 1),
      '12345678901234567890123456789012',
      'a'.repeat(40),
      'abababababababababababababababab',
      'abcdefghijklmnopqrstuvwxyzABCDEF',
      'my token with spaces in it, 2024!',
      'Zelo-API-Token-0000000-of-the-company',
    ]) {
      expect(isStrongApiToken(weak), weak).toBe(false);
    }
    for (const strong of [
      'tok-0f3a9c1e2b7d4865a1c3e5f7092b4d6e',
      'c9bf9e57-1685-4c89-bafb-ff5af830be8a',
      'Kq8#vR2!mZ7@pL4$wN9&xT3*yB6%cD1^',
    ]) {
      expect(isStrongApiToken(strong), strong).toBe(true);
    }
  });
});
