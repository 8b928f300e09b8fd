/** Net takings per day as bars (recharts). Values are integer pesewas; labels use formatGhs. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TakingsReport } from '../../../shared/ipc/contract';
import { formatGhs, parseAmount } from '../../../shared/money';
import { addDays, axisDay, dayText } from '../format';

type Point = { date: string; label: string; net: number; gross: number };

export function chartPoints(report: TakingsReport): Point[] {
  const byDate = new Map(report.byDay.map((d) => [d.date, d]));
  const points: Point[] = [];
  for (let date = report.from, i = 0; date <= report.to && i < 400; date = addDays(date, 1), i += 1) {
    const day = byDate.get(date);
    points.push({
      date,
      label: axisDay(date),
      net: day ? parseAmount(day.net, { allowZero: true }) : 0,
      gross: day ? parseAmount(day.gross, { allowZero: true }) : 0,
    });
  }
  return points;
}

export function TakingsChart({ report }: { report: TakingsReport }) {
  const points = chartPoints(report);
  const summary = points.filter((p) => p.gross > 0).length;
  return (
    <figure className="chart" aria-label={`Net takings per day from ${dayText(report.from)} to ${dayText(report.to)}`}>
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#c9ced6" vertical={false} />
            <XAxis dataKey="label" tick={{ fill: '#1f2937', fontSize: 11 }} interval="preserveStartEnd" />
            <YAxis tickFormatter={(v: number) => formatGhs(Math.round(v))} tick={{ fill: '#1f2937', fontSize: 11 }} width={84} />
            <Tooltip formatter={(v) => formatGhs(Math.round(Number(v)))} labelFormatter={(l) => String(l)} />
            <Bar dataKey="net" name="Net" fill="#1d4ed8" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">
        Net per day, {dayText(report.from)} to {dayText(report.to)}: {summary} day{summary === 1 ? '' : 's'} with takings.
      </figcaption>
      <table className="visually-hidden">
        <caption>Net takings per day</caption>
        <tbody>
          {points
            .filter((p) => p.gross > 0)
            .map((p) => (
              <tr key={p.date}>
                <th scope="row">{p.date}</th>
                <td>{formatGhs(p.net)}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}
