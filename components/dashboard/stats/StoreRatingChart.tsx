/**
 * The store's rating per day (solid line, broken where a day has no snapshot: never interpolated) beside the average
 * of the written reviews per period (dots joined), on one 1–5 scale, drawn by uPlot. Loaded only by the app page
 * (next/dynamic). The canvas is hidden from assistive technology: StoreRatingPanel carries the numbers as a table.
 */
import { useMemo } from 'react';
import uPlot from 'uplot';
import UplotBox from './UplotBox';

const HEIGHT = 240;
export const STORE_COLOR = '#0f766e';
export const REVIEWS_COLOR = '#4f46e5';

export type RatingPoint = { date: string; store: number | null; reviews: number | null };

const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');

function chartData(points: RatingPoint[]): uPlot.AlignedData {
  return [points.map((p) => Date.parse(`${p.date}T00:00:00Z`) / 1000), points.map((p) => p.store), points.map((p) => p.reviews)];
}

function options(width: number): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    tzDate: utc,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: [1, 5] } },
    series: [
      {},
      { label: 'Store rating', stroke: STORE_COLOR, width: 2, spanGaps: false, points: { show: true, size: 4 } },
      { label: 'Review average', stroke: REVIEWS_COLOR, width: 1, dash: [4, 4], spanGaps: true, points: { show: true, size: 5 } },
    ],
    axes: [{}, { label: 'Stars', size: 48, splits: () => [1, 2, 3, 4, 5] }],
  };
}

export default function StoreRatingChart({ points }: { points: RatingPoint[] }) {
  const data = useMemo(() => chartData(points), [points]);
  return <UplotBox options={options} data={data} height={HEIGHT} />;
}
