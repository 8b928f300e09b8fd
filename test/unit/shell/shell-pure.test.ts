/**
 * The pure parts of the Electron shell: sender check, app:// path mapping, CSP, the preload's name lists,
 * the question asked when the window closes with unsaved Settings edits.
 */
import { describe, expect, it } from 'vitest';
import { isTrustedSender, isTrustedUrl } from '../../../electron/main/sender-check.js';
import { contentTypeOf, resolveAppPath } from '../../../electron/main/protocol-path.js';
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../../../electron/main/csp.js';
import { CLOSE_AND_DISCARD, closeQuestion, closesAfter, KEEP_EDITING } from '../../../electron/main/close-question.js';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES } from '../../../shared/ipc/channels.js';
import { ipcContract, ipcEvents } from '../../../shared/ipc/contract.js';

describe('sender check', () => {
  it('accepts only the top frame of app://momo', () => {
    expect(isTrustedSender({ url: 'app://momo/index.html', parent: null }, null)).toBe(true);
    expect(isTrustedSender(null, null)).toBe(false);
    expect(isTrustedSender(undefined, null)).toBe(false);
    expect(isTrustedSender({ url: 'app://momo/index.html', parent: {} }, null)).toBe(false);
    for (const url of [
      'file:///index.html',
      'https://momo/',
      'app://evil/index.html',
      'app://momo.evil/',
      'app://user@momo/',
      'http://localhost:5173/',
      'about:blank',
      '',
      'not a url',
    ]) {
      expect(isTrustedUrl(url, null), url).toBe(false);
    }
  });
  it('accepts the dev server only when one is configured, on its exact origin', () => {
    expect(isTrustedUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isTrustedUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isTrustedUrl('http://evil.example/', 'http://evil.example')).toBe(false);
  });
});

describe('app:// paths', () => {
  const root = '/opt/momo/out/renderer';
  it('maps app://momo/... into the renderer folder', () => {
    expect(resolveAppPath('app://momo/', root)).toBe('/opt/momo/out/renderer/index.html');
    expect(resolveAppPath('app://momo/assets/index-1.js', root)).toBe('/opt/momo/out/renderer/assets/index-1.js');
    expect(resolveAppPath('app://momo/a%20b.css?x=1#y', root)).toBe('/opt/momo/out/renderer/a b.css');
  });
  it('refuses anything that would leave it or is not ours', () => {
    expect(resolveAppPath('app://momo/../secret', root)).toBe('/opt/momo/out/renderer/secret'); // the URL parser already clamps it
    expect(resolveAppPath('app://momo/%2e%2e/secret', root)).toBe('/opt/momo/out/renderer/secret');
    for (const url of [
      'app://momo/assets/%2e%2e%2f%2e%2e%2fsecret',
      'app://momo/a%5c..%5csecret',
      'app://momo/%00',
      'app://other/index.html',
      'file:///etc/passwd',
      'app://momo/%E0%A4%A',
    ]) {
      expect(resolveAppPath(url, root), url).toBeNull();
    }
  });
  it('knows its content types', () => {
    expect(contentTypeOf('x.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('x.unknown')).toBe('application/octet-stream');
  });
});

describe('content security policy', () => {
  it('allows no inline script, no eval, no remote origin, no frames, no plugins', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
  it('relaxes only styles and the dev server origin while developing', () => {
    const dev = devContentSecurityPolicy('http://localhost:5173');
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
    expect(dev).not.toContain('unsafe-eval');
  });
});

describe('IPC name lists used by the preload', () => {
  it('are exactly the contract channels and events', () => {
    expect([...IPC_CHANNEL_NAMES].sort()).toEqual(Object.keys(ipcContract).sort());
    expect([...IPC_EVENT_NAMES].sort()).toEqual(Object.keys(ipcEvents).sort());
    for (const name of [...IPC_CHANNEL_NAMES, ...IPC_EVENT_NAMES]) expect(name).toMatch(/^[a-z]+(-[a-z]+)*:[a-zA-Z]+$/);
  });
});

describe('the question on closing the window with unsaved Settings edits', () => {
  it('names each button for what it does, "Keep editing" first', () => {
    const question = closeQuestion();
    expect(question.type).toBe('question');
    expect(question.message).toBe('Discard unsaved changes?');
    expect(question.buttons[KEEP_EDITING]).toBe('Keep editing');
    expect(question.buttons[CLOSE_AND_DISCARD]).toBe('Close and discard');
    expect(question.buttons).toHaveLength(2);
  });
  it('keeps editing on a reflex: Enter (the default) and Escape or closing the box (the cancel answer)', () => {
    const question = closeQuestion();
    expect(question.defaultId).toBe(KEEP_EDITING);
    expect(question.cancelId).toBe(KEEP_EDITING);
    expect(closesAfter(question.defaultId)).toBe(false);
    expect(closesAfter(question.cancelId)).toBe(false);
    expect(question.noLink).toBe(true);
  });
  it('lets the window close only on "Close and discard"', () => {
    expect(closesAfter(CLOSE_AND_DISCARD)).toBe(true);
    expect(closesAfter(KEEP_EDITING)).toBe(false);
    for (const other of [-1, 2, 0.5, Number.NaN]) expect(closesAfter(other), String(other)).toBe(false);
  });
  it('is a fresh object each time, so a change to one question never carries over to the next', () => {
    const first = closeQuestion();
    first.buttons.reverse();
    first.defaultId = CLOSE_AND_DISCARD;
    expect(closeQuestion().buttons[KEEP_EDITING]).toBe('Keep editing');
    expect(closeQuestion().defaultId).toBe(KEEP_EDITING);
  });
});
