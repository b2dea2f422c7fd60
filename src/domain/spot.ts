import { z } from 'zod';

/** One reference spot price (served-shapes §9). */
export const SpotRowSchema = z
  .object({
    coin: z.string().describe('Coin id in the simple-price API, e.g. bitcoin.'),
    price_usd: z.number().positive(),
    as_of: z.iso.datetime({ offset: true }),
  })
  .describe('Reference spot price in USD with its as-of time.');
export type SpotRow = z.infer<typeof SpotRowSchema>;
