/** A screen's or a form's error, announced at once (role="alert"); nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
