import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { Card } from './card';
import { Spinner } from './spinner';

export interface TableColumn {
  header: ReactNode;
  align?: 'left' | 'right' | 'center';
  /** The header is read by screen readers only (e.g. an actions column). */
  srOnly?: boolean;
  className?: string;
}

/** The columns that apply: `tableColumns(a, b, canManage && c)` drops the `false` ones. */
export const tableColumns = (...columns: Array<TableColumn | false | null | undefined>): TableColumn[] => columns.filter((c): c is TableColumn => Boolean(c));

/**
 * Cell spacing of a table: `comfortable` for the settings-style lists (team, API keys), `compact` for
 * the jobs list, `dense` for long result grids. Cells take `cellClass(density)` for the same rhythm.
 */
export type TableDensity = 'comfortable' | 'compact' | 'dense';

const HEAD: Record<TableDensity, string> = {
  comfortable: 'px-4 py-3 first:pl-6 last:pr-6 font-semibold',
  compact: 'px-2.5 py-3 first:pl-5 last:pr-5 font-medium',
  dense: 'px-3 py-2.5 first:pl-4 last:pr-4 font-medium',
};
const CELL: Record<TableDensity, string> = {
  comfortable: 'px-4 py-4 first:pl-6 last:pr-6 text-sm text-slate-700',
  compact: 'px-2.5 py-4 first:pl-5 last:pr-5',
  dense: 'px-3 py-2.5 first:pl-4 last:pr-4',
};
const ALIGN = { left: 'text-left', right: 'text-right', center: 'text-center' } as const;

/** The class of a body cell with the table's spacing (plus any extra classes). */
export const cellClass = (density: TableDensity, ...extra: Array<string | false | null | undefined>) => cn(CELL[density], ...extra);

export interface TableProps {
  columns: TableColumn[];
  /** Body rows (<tr>…). */
  children: ReactNode;
  density?: TableDensity;
  /** A caption for screen readers. */
  caption?: string;
  'aria-label'?: string;
  className?: string;
  /** Classes of the header row's <thead> (e.g. sticky). */
  headClassName?: string;
}

/** One data table: a header from `columns`, the caller's rows, the app's borders and spacing. */
export function Table({ columns, children, density = 'comfortable', caption, className, headClassName, ...aria }: TableProps) {
  return (
    <table className={cn('min-w-full text-left text-sm', className)} aria-label={aria['aria-label']}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead className={cn('bg-slate-50', headClassName)}>
        <tr className="border-b border-slate-200 text-xs tracking-wide text-slate-500 uppercase">
          {columns.map((c, i) => (
            <th key={i} scope="col" className={cn(HEAD[density], ALIGN[c.align ?? 'left'], c.className)}>
              {c.srOnly ? <span className="sr-only">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
    </table>
  );
}

/** A table in a card that scrolls sideways on narrow screens. */
export function TableCard({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <Card className={cn('overflow-hidden', className)}>
      {/* relative: sr-only header text is absolutely positioned and must stay inside the scroller.
          @container: a message row (TableMessageRow) takes the scroller's visible width. */}
      <div className="@container relative overflow-x-auto">{children}</div>
    </Card>
  );
}

/**
 * One full-width row with a message (loading, failed, empty). The message is as wide as what the
 * scroller shows and stays put while the table scrolls sideways, so on a phone it is not centred on
 * the whole (wider) table and cut off. Its scroller must be an `@container` (TableCard is).
 */
export function TableMessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="p-0">
        <div className="sticky left-0 w-[100cqw] px-6 py-12 text-center text-sm text-slate-500">{children}</div>
      </td>
    </tr>
  );
}

/** What a table body needs of its query (TanStack Query's result has it). */
export interface TableQuery {
  isPending: boolean;
  isError: boolean;
}

export interface TableRowsProps<T> {
  colSpan: number;
  /** A spinner row with `loadingText` while it is pending, `failedText` when it failed. */
  query: TableQuery;
  loadingText: string;
  failedText: string;
  rows: T[] | undefined;
  /** The row shown when there are no rows (none: an empty body). */
  empty?: ReactNode;
  children: (row: T) => ReactNode;
}

/** The body of a table fed by a query: loading, failed, empty, or one row per item. */
export function TableRows<T>({ colSpan, query, loadingText, failedText, rows = [], empty, children }: TableRowsProps<T>) {
  if (query.isPending) {
    return (
      <TableMessageRow colSpan={colSpan}>
        <Spinner size="sm" /> <span className="ml-2">{loadingText}</span>
      </TableMessageRow>
    );
  }
  if (query.isError) return <TableMessageRow colSpan={colSpan}>{failedText}</TableMessageRow>;
  if (rows.length === 0 && empty) return <TableMessageRow colSpan={colSpan}>{empty}</TableMessageRow>;
  return <>{rows.map(children)}</>;
}

/** A table in a card, its body fed by a query (see `TableRows`): the screens' lists (team, API keys). */
export function DataTable<T>({
  columns,
  caption,
  query,
  ...body
}: Omit<TableRowsProps<T>, 'colSpan' | 'rows' | 'query'> & { columns: TableColumn[]; caption?: string; query: TableQuery & { data?: T[] } }) {
  return (
    <TableCard>
      <Table caption={caption} columns={columns}>
        <TableRows colSpan={columns.length} query={query} rows={query.data} {...body} />
      </Table>
    </TableCard>
  );
}

/** A row's destructive action (Remove, Revoke…): a small red ghost button whose aria-label names the row. */
export function RowAction({ icon: Icon, iconClassName = 'size-4', children, ...props }: { icon: LucideIcon; iconClassName?: string; children: ReactNode; onClick: () => void; 'aria-label': string }) {
  return (
    <Button variant="destructive-ghost" size="sm" {...props}>
      <Icon className={iconClassName} aria-hidden /> {children}
    </Button>
  );
}
