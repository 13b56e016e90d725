import { z } from 'zod';

/** seed 2.4: wallet tokenization request. device.* is optional fraud-prevention data. */
export const tokenizeRequestSchema = z.object({
  payment_method: z.object({
    type: z.string().min(1).max(64),
    payment_data: z.string().min(1),
  }),
  transaction_identifier: z.string().min(1).max(128),
  device: z
    .object({
      fingerprint: z
        .object({
          os: z.string().optional(),
          system_version: z.string().optional(),
          model: z.string().optional(),
          resolution: z.string().regex(/^\d+x\d+$/, 'must be <width>x<height>').optional(),
          ram: z.number().optional(),
          disk_space: z.number().optional(),
          free_disk_space: z.number().optional(),
        })
        .optional(),
      platform: z.object({ session_id: z.string().optional() }).optional(),
    })
    .optional(),
});
export type TokenizeRequest = z.infer<typeof tokenizeRequestSchema>;

/** seed 2.3 */
export const cardTokenSchema = z.object({ id: z.string().min(1), bin: z.string().regex(/^\d{6,8}$/) });
export type CardToken = z.infer<typeof cardTokenSchema>;
