import type { ReactNode } from 'react';

/** A column's header: its text, or its content with `numeric` for a right-aligned figure column. */
export type Column = string | { label: ReactNode; numeric?: boolean };

/** A table's header row, one scoped column header per column. */
export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => {
          const { label, numeric } = typeof column === 'string' ? { label: column, numeric: false } : column;
          return (
            <th key={i} scope="col" className={numeric ? 'num' : undefined}>
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
