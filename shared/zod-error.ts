import type { z } from 'zod';

/** The first issue of a zod error as "field: message", for 400 bodies that name the field. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    // Name nested unknown fields by their full path ("customer.extra"), like every other message.
    const keys = (issue as { keys: string[] }).keys.map((key) => (path ? `${path}.${key}` : key));
    return `Unknown field: ${keys.join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) return `${path} is required`;
  // Messages written for this schema already start with the field name: do not say it twice.
  if (path && (issue.message === path || issue.message.startsWith(`${path} `))) return issue.message;
  return path ? `${path}: ${issue.message}` : issue.message;
}
