/**
 * An app's store icon, or its initial when there is none or the icon fails to load (a store CDN that answers 404, a
 * blocked host): every list and card that shows an app uses this one. Store icons come from the stores' CDNs at the
 * size asked for, so no image proxy (`unoptimized`). An icon that failed before React hydrated (no onError then) is
 * caught by the ref: a finished image without pixels.
 */
import Image from 'next/image';
import { useCallback, useState } from 'react';

/** The first letter (a whole grapheme: é, 日, an emoji), upper-cased; '?' for an empty title. */
export const appInitial = (title: string) => ([...(title ?? '').trim()][0] ?? '?').toUpperCase();

export default function AppIcon({
  src,
  title,
  size,
  className,
  fallbackClassName,
  loading,
}: {
  src: string | null | undefined;
  title: string;
  size: number;
  className?: string;
  fallbackClassName?: string;
  loading?: 'lazy' | 'eager';
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const checkLoaded = useCallback(
    (img: HTMLImageElement | null) => {
      if (img && src && img.complete && img.naturalWidth === 0 && img.getAttribute('src')) setFailed(src);
    },
    [src],
  );
  if (!src || failed === src) {
    return (
      <span aria-hidden="true" className={fallbackClassName}>
        {appInitial(title)}
      </span>
    );
  }
  return <Image ref={checkLoaded} unoptimized src={src} alt="" width={size} height={size} className={className} loading={loading} onError={() => setFailed(src)} />;
}
