/**
 * The review count (bars) and the average rating (line, 1–5) per period, drawn by uPlot on a canvas. This module is
 * loaded only by the ratings-and-trends page (next/dynamic), so uPlot and its stylesheet never reach another page.
 * The canvas is hidden from assistive technology: the page carries the same numbers as a table.
 */
import { useCallback, useMemo } from 'react';
import uPlot from 'uplot';
import UplotBox from './UplotBox';
import type { AppStats } from '@/lib/api/appStats';

const HEIGHT = 280;
const COUNT_COLOR = '#93c5fd';
const RATING_COLOR = '#4f46e5';

/** Periods are UTC days: show them as such, whatever the viewer's time zone. */
const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');

function chartData(series: AppStats['series']): uPlot.AlignedData {
  return [
    series.map((p) => Date.parse(`${p.start}T00:00:00Z`) / 1000),
    series.map((p) => p.reviews),
    series.map((p) => p.average_rating),
  ];
}

function options(width: number, interval: AppStats['interval']): uPlot.Options {
  const bars = uPlot.paths.bars?.({ size: [0.7, interval === 'week' ? 48 : 24] });
  return {
    width,
    height: HEIGHT,
    tzDate: utc,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, count: { range: (_u, _min, max) => [0, Math.max(1, max)] }, rating: { range: [1, 5] } },
    series: [
      {},
      { label: 'Reviews', scale: 'count', stroke: COUNT_COLOR, fill: COUNT_COLOR, paths: bars, points: { show: false } },
      { label: 'Average rating', scale: 'rating', stroke: RATING_COLOR, width: 2, spanGaps: true, points: { show: true, size: 5 } },
    ],
    axes: [
      {},
      // Whole reviews only: no 0.2 of a review between the ticks.
      { scale: 'count', label: 'Reviews', size: 56, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000] },
      { scale: 'rating', side: 1, label: 'Average rating', grid: { show: false }, splits: () => [1, 2, 3, 4, 5], size: 48 },
    ],
  };
}

export default function TrendChart({ stats }: { stats: AppStats }) {
  const chartOptions = useCallback((width: number) => options(width, stats.interval), [stats.interval]);
  const data = useMemo(() => chartData(stats.series), [stats.series]);
  return <UplotBox options={chartOptions} data={data} height={HEIGHT} />;
}
