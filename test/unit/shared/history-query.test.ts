/** History search: the number in every form people write it, and what is too short to search. */
import { describe, expect, it } from 'vitest';
import { numberEnd, queryTooShort, referencePrefixes } from '../../../shared/history-query.js';

describe('numberEnd', () => {
  it.each(['024 123 4567', '0241234567', '+233 24 123 4567', '+233241234567', '233241234567', '00233 24 123 4567', '024-123-4567'])(
    '%s is the number ending 241234567',
    (query) => expect(numberEnd(query)).toBe('241234567'),
  );
  it('keeps 4 or more trailing digits as they are, and is null for fewer or for words', () => {
    expect(numberEnd('4567')).toBe('4567');
    expect(numberEnd('123 4567')).toBe('1234567');
    expect(numberEnd('567')).toBeNull();
    expect(numberEnd('TX_01')).toBeNull();
  });
});

describe('queryTooShort', () => {
  it('says what to type when a query cannot be searched', () => {
    expect(queryTooShort('45')).toBe("Type at least 4 digits of the customer's number.");
    expect(queryTooShort('tx')).toBe('Type at least 3 characters of the reference.');
    expect(queryTooShort('')).toBeNull();
    expect(queryTooShort('4567')).toBeNull();
    expect(queryTooShort('tx_')).toBeNull();
  });
  it('looks for references as typed and upper-cased', () => {
    expect(referencePrefixes(' tx_01 ')).toEqual(['tx_01', 'TX_01']);
    expect(referencePrefixes('TX_01')).toEqual(['TX_01']);
  });
});
