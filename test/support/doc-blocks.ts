/** The commands and configs of the repository's documents, read by the tests that run them as written. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A document, by its path from the repository's root (named in a test's errors). */
export type Doc = { readonly path: string; readonly text: string };

export function readDoc(path: string): Doc {
  return { path, text: readFileSync(ROOT + path, 'utf8') };
}

/** The first ```<lang> block after the first occurrence of `text` (a heading, or words of the text before it). */
export function blockAfter(doc: Doc, text: string, lang: string): string {
  const at = doc.text.indexOf(text);
  const m = at < 0 ? null : new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(doc.text.slice(at));
  if (!m) throw new Error(`${doc.path}: no ${lang} block after "${text}"`);
  return m[1]!;
}

/**
 * Everything a document shows as code, each once, in order: every fenced block whole, then every inline `span`
 * outside them. A test that gives each one a case (run, checked or skipped by name) fails on one added without.
 */
export function codeItems(doc: Doc): string[] {
  const fence = /```[^\n]*\n([\s\S]*?)\n```/g;
  const blocks = [...doc.text.matchAll(fence)].map((m) => m[1]!);
  const inline = [...doc.text.replace(fence, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [...new Set([...blocks, ...inline])];
}
