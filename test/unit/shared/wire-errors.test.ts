import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ERROR_CODES, HTTP_STATUS_OF, errorBody, errorBodySchema } from '../../../shared/wire/errors.js';

describe('error codes and statuses (project decisions, docs/provider-contract.md)', () => {
  it('maps every code to the status docs/provider-contract.md gives it, and no other code', () => {
    const contract = readFileSync(new URL('../../../docs/provider-contract.md', import.meta.url), 'utf8');
    const documented = [...contract.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(documented).toHaveLength(9);
    expect(HTTP_STATUS_OF).toEqual(Object.fromEntries(documented));
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(HTTP_STATUS_OF).sort());
  });

  it('UNAUTHENTICATED is 401 as the spec says (section 7)', () => {
    expect(HTTP_STATUS_OF.UNAUTHENTICATED).toBe(401);
  });
});

describe('errorBody / errorBodySchema (spec 7: {"error": {"code", "message"}})', () => {
  it('builds the spec shape and it round-trips through JSON and the schema', () => {
    const body = errorBody('DUPLICATE_REFERENCE', 'merchantRef sale-42 was used with a different body');
    expect(body).toEqual({ error: { code: 'DUPLICATE_REFERENCE', message: 'merchantRef sale-42 was used with a different body' } });
    expect(errorBodySchema.parse(JSON.parse(JSON.stringify(body)))).toEqual(body);
  });

  it('tolerates codes the project does not know and extra fields', () => {
    const parsed = errorBodySchema.parse({
      error: { code: 'INSUFFICIENT_SCOPE', message: 'Nope', docUrl: 'https://example.invalid' },
      requestId: 'req_1',
    });
    expect(parsed.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((parsed as Record<string, unknown>).requestId).toBe('req_1');
  });

  it.each([
    ['no error object', { message: 'x' }, 'error'],
    ['error as a string', { error: 'UNAUTHENTICATED' }, 'error'],
    ['empty code', { error: { code: '', message: 'x' } }, 'error.code'],
    ['missing code', { error: { message: 'x' } }, 'error.code'],
    ['missing message', { error: { code: 'INTERNAL' } }, 'error.message'],
    ['numeric message', { error: { code: 'INTERNAL', message: 500 } }, 'error.message'],
  ])('rejects %s', (_name, value, path) => {
    const result = errorBodySchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});
