// The monthly earnings chart. recharts is heavy: this module is only ever imported lazily.
import { formatRand, lazily } from '@karoo/shared';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface MonthPoint {
  month: string;
  revenue: number;
  earnings: number;
}

const monthFormatter = lazily(() => new Intl.DateTimeFormat('en-ZA', { month: 'short', year: '2-digit', timeZone: 'UTC' }));
const label = (month: string) => monthFormatter().format(new Date(`${month}-01T00:00:00Z`));

export default function EarningsChart({ data }: { data: MonthPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data.map((d) => ({ ...d, label: label(d.month) }))} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
        <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} />
        <YAxis tickLine={false} axisLine={false} fontSize={12} width={64} tickFormatter={(v: number) => formatRand(v)} />
        <Tooltip formatter={(value) => formatRand(Number(value))} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="revenue" name="Revenue" fill="#fdba74" radius={[6, 6, 0, 0]} />
        <Bar dataKey="earnings" name="Your earnings" fill="#ea580c" radius={[6, 6, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}
