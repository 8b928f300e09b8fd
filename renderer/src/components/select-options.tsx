export type Choice = { value: string; label: string };

/** A select's options: first the one that means none chosen (value ""), then one per choice. */
export function SelectOptions({ none, choices }: { none: string; choices: Choice[] }) {
  return (
    <>
      <option value="">{none}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </>
  );
}
