/**
 * Security headers for the HTML documents the site serves (pages, /docs). They guard documents a browser
 * renders (framing, referrers leaking a page's URL); JSON answers carry only the ones that apply to them
 * (nosniff and a deny-all CSP, set for every response in src/http/app.ts).
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
