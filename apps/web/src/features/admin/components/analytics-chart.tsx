// The Analytics tab's weekly chart: bookings (bars, left axis) and platform revenue (line, right
// axis, rand). recharts is heavy: this module is only ever imported lazily.
import { formatRand, lazily, type AnalyticsWeek } from '@karoo/shared';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const weekFormatter = lazily(() => new Intl.DateTimeFormat('en-ZA', { day: 'numeric', month: 'short', timeZone: 'UTC' }));
const label = (weekStart: string) => weekFormatter().format(new Date(`${weekStart}T00:00:00Z`));

export default function AnalyticsChart({ data }: { data: AnalyticsWeek[] }) {
  return (
    <ResponsiveContainer width="100%" height={280}>
      <ComposedChart data={data.map((d) => ({ ...d, label: label(d.week_start) }))} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
        <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} />
        <YAxis yAxisId="bookings" allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} width={40} />
        <YAxis yAxisId="revenue" orientation="right" tickLine={false} axisLine={false} fontSize={12} width={72} tickFormatter={(v: number) => formatRand(v)} />
        <Tooltip formatter={(value, name) => (name === 'Revenue' ? formatRand(Number(value)) : String(value))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="bookings" dataKey="bookings" name="Bookings" fill="#fdba74" radius={[6, 6, 0, 0]} />
        <Line yAxisId="revenue" type="monotone" dataKey="revenue" name="Revenue" stroke="#ea580c" strokeWidth={2} dot={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
