export type SaveResult = { ok: boolean; text: string } | null;

type Props = {
  message: SaveResult;
  testId?: string;
  /** A refusal is announced at once (role="alert") rather than politely with the rest. */
  alertOnRefusal?: boolean;
};

/** What a form's last save said: green when it went through, red when it did not; nothing before the first. */
export function SaveMessage({ message, testId, alertOnRefusal = false }: Props) {
  if (!message) return null;
  return (
    <p className={message.ok ? 'ok-text' : 'form-error'} role={alertOnRefusal && !message.ok ? 'alert' : 'status'} data-testid={testId}>
      {message.text}
    </p>
  );
}
