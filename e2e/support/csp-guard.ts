import { afterAll, afterEach, expect } from 'vitest';
import { takeCspViolations } from './browser';

/**
 * Every e2e test fails when a page broke the server's Content Security Policy while it ran (issue 10 item 1):
 * the screens must work under the policy they are served with. A violation reported after a file's last test
 * fails that file.
 */
afterEach(() => {
  expect(takeCspViolations(), 'Content Security Policy violations').toEqual([]);
});
afterAll(() => {
  expect(takeCspViolations(), 'Content Security Policy violations').toEqual([]);
});
