/** A screen's or a form's error, announced at once (role="alert"); nothing when there is none. */
export function FormError({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert" data-testid={testId}>
      {message}
    </p>
  );
}
