/**
 * The benchmark-drift model: spot follows a driftless geometric Brownian motion (zero rates, zero
 * carry; log-price drift −σ²/2 so the price itself is a martingale) with a constant annualized σ.
 * Terminal markets settle on the price at close; touch markets on the running max/min before close.
 */

/** Standard normal CDF (Abramowitz & Stegun 26.2.17; absolute error < 7.5e-8). */
export function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - tail : tail;
}

/** P(S_T > K) under the model. */
export function probTerminalAbove(spot: number, strike: number, sigma: number, years: number): number {
  if (years <= 0 || sigma <= 0) return spot > strike ? 1 : 0;
  const s = sigma * Math.sqrt(years);
  return normCdf((Math.log(spot / strike) - (sigma * sigma * years) / 2) / s);
}

/**
 * P(the price touches K at some time before T). Reflection principle for Brownian motion with drift
 * m = −σ²/2 in log space: with b = |ln(K/S)|, P = N((−b + μT)/σ√T) + e^{2μb/σ²} N((−b − μT)/σ√T),
 * where μ = m for an up barrier and −m for a down barrier. Already at or past K: 1.
 */
export function probTouch(spot: number, strike: number, sigma: number, years: number): number {
  const up = strike > spot;
  const b = Math.abs(Math.log(strike / spot));
  if (b === 0 || (up ? spot >= strike : spot <= strike)) return 1;
  if (years <= 0 || sigma <= 0) return 0;
  const mu = up ? (-sigma * sigma) / 2 : (sigma * sigma) / 2;
  const s = sigma * Math.sqrt(years);
  return normCdf((-b + mu * years) / s) + Math.exp((2 * mu * b) / (sigma * sigma)) * normCdf((-b - mu * years) / s);
}
