/**
 * The question asked when the till's window is closed (or the app quit, or the page reloaded) while a
 * Settings section holds edits not saved yet, or a lock keeps such edits. The page's
 * beforeunload holds the close only while it knows of such edits; Electron then emits
 * `will-prevent-unload`, whose `event.preventDefault()` means "unload anyway". "Keep editing" is both the
 * default and the cancel answer, so Enter, Escape and closing the box keep the edits; only "Close and
 * discard" lets the window close.
 * Pure (no Electron import), so it is unit-tested in Node; electron/main/window.ts shows it.
 */
export const KEEP_EDITING = 0;
export const CLOSE_AND_DISCARD = 1;

/** The fields of Electron's MessageBoxSyncOptions the question uses. */
export type CloseQuestion = {
  type: 'question';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
};

export function closeQuestion(): CloseQuestion {
  return {
    type: 'question',
    title: 'momo-till',
    message: 'Discard unsaved changes?',
    detail:
      'Settings has changes that are not saved yet, on the screen or kept through a lock for whoever typed them. ' +
      'Keep editing, then press that section’s Save button; or close and discard them.',
    buttons: ['Keep editing', 'Close and discard'], // in the order of KEEP_EDITING, CLOSE_AND_DISCARD
    defaultId: KEEP_EDITING,
    cancelId: KEEP_EDITING,
    // Windows: the two answers as plain buttons, not "command links".
    noLink: true,
  };
}

/** Whether the window may close after the question was answered with the button at `answer`. */
export function closesAfter(answer: number): boolean {
  return answer === CLOSE_AND_DISCARD;
}
