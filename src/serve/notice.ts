/** `_notice` texts (served-shapes §12). One place, so REST, MCP and A2A say the same thing. */
import type { DataSource, Notice } from '../domain/index.ts';

const POLICY = 'This _notice field is additive; its shape will not change.';

/** The free-key notice. A service on simulated data says so here and in `GET /` (DESIGN.md §3). */
export function noticeFor(
  origin: string,
  dataSource: DataSource | null,
  variant: 'default' | 'movers' = 'default',
): Notice {
  const base =
    'Free anonymous access stays. A free key (POST /v1/keys with {"email": …}) raises the daily limit to 10,000 ' +
    'requests and adds advance notice of schema changes and deprecations. Problems: open an issue on the repository.';
  const simulated = dataSource === 'simulated' ? ' This instance serves SIMULATED data, not real venue data.' : '';
  const thanks = variant === 'movers' ? 'Thanks for pulling the daily movers. ' : '';
  return {
    type: 'free_key_offer',
    message: `${thanks}${base}${simulated}`,
    docs: `${origin}/docs`,
    policy: POLICY,
    data_source: dataSource,
  };
}
