/** A field's error, tied to its input through aria-describedby (id). */
export function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} data-testid={id}>
      {message}
    </p>
  );
}
