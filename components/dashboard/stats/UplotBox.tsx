/**
 * A uPlot chart that fills its box's width and follows it when the box resizes: the one mount of the app page's
 * charts (TrendChart, StoreRatingChart). Redrawn when `data` changes; hidden from assistive technology, because each
 * chart's panel carries its numbers as a table. Callers memoise `options` and `data`: a new one draws the chart again.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export default function UplotBox({ options, data, height }: { options: (width: number) => uPlot.Options; data: uPlot.AlignedData; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const chart = new uPlot(options(el.clientWidth || 600), data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [options, data, height]);
  return <div ref={box} aria-hidden="true" style={{ minHeight: height }} />;
}
