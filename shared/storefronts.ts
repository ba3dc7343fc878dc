/**
 * App Store storefronts (lower-case ISO alpha-2) that publish a customer-reviews feed. Pure data, the one list for the
 * browser (the connect flow's country picker) and the server (validating a payload's country, and the engine's check
 * of an App Store feed source, server/monitor/service.ts). A storefront Apple closes answers an error, which pauses
 * just that source with its reason.
 *
 * "All countries" does not mean all ~175 storefronts: Apple's public review feed is read one storefront at a time, so
 * watching every one would multiply the requests per app by 175 for storefronts where most apps get no reviews at all.
 * It means the MAIN_STOREFRONTS below — the 40 largest App Store markets by consumer spending and downloads, which
 * between them carry the great majority of written reviews. Anyone who needs another storefront picks it by name.
 */
export const ALL_COUNTRIES = 'all';

export const MAIN_STOREFRONTS: readonly string[] = [
  'us', 'gb', 'ca', 'au', 'de', 'fr', 'jp', 'cn', 'kr', 'in',
  'br', 'mx', 'es', 'it', 'nl', 'se', 'no', 'dk', 'fi', 'ch',
  'at', 'be', 'ie', 'nz', 'sg', 'hk', 'tw', 'ru', 'tr', 'pl',
  'pt', 'sa', 'ae', 'il', 'za', 'id', 'th', 'my', 'ph', 'vn',
];

export const STOREFRONTS: readonly string[] = (
  'ae ag ai al am ao ar at au az ba bb bd be bf bg bh bj bm bn bo br bs bt bw by bz ca cd cg ch ci cl cm cn co cr cv cy ' +
  'cz de dk dm do dz ec ee eg es fi fj fm fr ga gb gd ge gh gm gr gt gw gy hk hn hr hu id ie il in iq is it jm jo jp ke ' +
  'kg kh kn kr kw ky kz la lb lc lk lr lt lu lv ly ma md me mg mk ml mn mo mr ms mt mu mv mw mx my mz na ne ng ni nl no ' +
  'np nr nz om pa pe pg ph pk pl pt pw py qa ro rs ru rw sa sb sc se sg si sk sl sn sr st sv sz tc td th tj tm tn to tr ' +
  'tt tw tz ua ug us uy uz vc ve vg vn vu xk ye za zm zw'
).split(' ');

export function isStorefrontCode(code: string): boolean {
  return STOREFRONTS.includes(code.toLowerCase());
}

let names: Intl.DisplayNames | null | undefined;

/** "United Kingdom" for "gb"; the upper-case code where the runtime has no region names. */
export function storefrontName(code: string): string {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      names = null;
    }
  }
  const upper = code.toUpperCase();
  // Kosovo has no ISO code of its own; Apple uses the user-assigned XK.
  if (upper === 'XK') return 'Kosovo';
  return names?.of(upper) ?? upper;
}

/** Every storefront as { code, name }, sorted by name for a picker. */
export function storefrontOptions(): Array<{ code: string; name: string }> {
  return STOREFRONTS.map((code) => ({ code, name: storefrontName(code) })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
}
