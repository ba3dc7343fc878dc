/**
 * App Store storefronts (lower-case ISO alpha-2) that publish a customer-reviews feed: what "all countries" means for
 * the public iOS feed, which is polled one storefront at a time. A storefront Apple closes answers an error, which
 * pauses just that source with its reason.
 */
export const APP_STORE_STOREFRONTS: readonly string[] = (
  'ae ag ai al am ao ar at au az ba bb bd be bf bg bh bj bm bn bo br bs bt bw by bz ca cd cg ch ci cl cm cn co cr cv cy ' +
  'cz de dk dm do dz ec ee eg es fi fj fm fr ga gb gd ge gh gm gr gt gw gy hk hn hr hu id ie il in iq is it jm jo jp ke ' +
  'kg kh kn kr kw ky kz la lb lc lk lr lt lu lv ly ma md me mg mk ml mn mo mr ms mt mu mv mw mx my mz na ne ng ni nl no ' +
  'np nr nz om pa pe pg ph pk pl pt pw py qa ro rs ru rw sa sb sc se sg si sk sl sn sr st sv sz tc td th tj tm tn to tr ' +
  'tt tw tz ua ug us uy uz vc ve vg vn vu xk ye za zm zw'
).split(' ');

export function isStorefront(country: string): boolean {
  return APP_STORE_STOREFRONTS.includes(country.toLowerCase());
}
