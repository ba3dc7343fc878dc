/**
 * The two tail probabilities the spike detector needs, without a statistics dependency: "how likely is at least this
 * many 1–2★ reviews out of n, if each is low with probability p" (binomial) and "how likely is an average this far
 * below the usual one" (normal approximation). Pure functions, accurate to far better than the thresholds they meet.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7): about 15 significant digits. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function logBinomialPmf(k: number, n: number, p: number): number {
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p);
}

/** P(X ≥ k) for X ~ Binomial(n, p). Summed in log space from k upwards, stopping once the terms stop mattering. */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const first = logBinomialPmf(k, n, p);
  let sum = 0;
  for (let i = k; i <= n; i++) {
    const term = Math.exp(logBinomialPmf(i, n, p) - first);
    sum += term;
    // Past the mode the terms only shrink: once one adds nothing visible, the rest add less.
    if (i > n * p && term < 1e-16 * sum) break;
  }
  return Math.min(1, Math.exp(first) * sum);
}

/** erfc(x), Numerical Recipes' Chebyshev fit: relative error below 1.2e-7 everywhere. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z ≥ z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}
