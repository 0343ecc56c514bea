/** Calendar months in UTC: usage is totalled per month (docs/contract.md §3.9). */
export interface Period {
  /** `YYYY-MM`, the key of a month's usage row. */
  readonly key: string;
  /** The first millisecond of the month. */
  readonly start: Date;
  /** The last millisecond of the month. */
  readonly end: Date;
}

export function periodOf(now: number): Period {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const start = new Date(Date.UTC(year, month, 1));
  const end = new Date(Date.UTC(year, month + 1, 1) - 1);
  return { key: `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`, start, end };
}
