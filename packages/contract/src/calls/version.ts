import { z } from 'zod';
import { defineCall } from '../call.js';

/**
 * The version page (§2.4 Version): an embedded page localised by language and region. The region picks
 * the host the app downloads come from (en, na and other each have their own, configured on the server);
 * the language is the caller's. The web works the region out of the browser's locale (a North American
 * country: na; otherwise English: en; else other).
 */
export const VERSION_REGIONS = ['en', 'na', 'other'] as const;
export const VersionRegionSchema = z.enum(VERSION_REGIONS, { error: 'validation.invalidValue' });
export type VersionRegion = z.infer<typeof VersionRegionSchema>;

export const VersionInfoSchema = z.object({
  /** The server's version tag (its package version). */
  Version: z.string(),
  /** The build the server was made from (WILDTRACK_BUILD, e.g. a commit), empty when not given. */
  Build: z.string(),
  Region: VersionRegionSchema,
  /** What changed, newest first, in the caller's language. */
  Changes: z.array(z.object({ Version: z.string(), Date: z.string(), Items: z.array(z.string()) })),
  /** The app downloads from the region's host. */
  Downloads: z.array(z.object({ Platform: z.enum(['android', 'ios']), Url: z.string() })),
});
export type VersionInfo = z.infer<typeof VersionInfoSchema>;

export const GetVersionInfo = defineCall({
  path: '/api/Version/Get',
  auth: 'session',
  access: 'session',
  body: z.object({ region: VersionRegionSchema.default('other') }),
  data: VersionInfoSchema,
  summary: 'The version page: the version tag, what changed (in the caller\'s language) and the app downloads from the region\'s host.',
});
